// Preloaded into server-everything (node --require): its app.listen(PORT) binds every
// interface; the tests allow only 127.0.0.1.
const net = require("node:net");
const listen = net.Server.prototype.listen;
net.Server.prototype.listen = function (...args) {
  if (typeof args[0] === "number" || typeof args[0] === "string") {
    const port = args[0];
    const rest = args.slice(1).filter((arg) => typeof arg === "function");
    return listen.call(this, { port: Number(port), host: "127.0.0.1" }, ...rest);
  }
  if (typeof args[0] === "object" && args[0] !== null) args[0] = { ...args[0], host: "127.0.0.1" };
  return listen.apply(this, args);
};
