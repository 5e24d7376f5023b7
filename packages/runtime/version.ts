/** The runtime's own version, reported by `initialize` and `daedalus version`. */
export const RUNTIME_VERSION = "0.1.0";
