import type { ComponentType } from "preact";
import { useEffect, useState } from "preact/hooks";

/**
 * A component whose code is fetched the first time it renders (a separate chunk), so
 * screens opened now and then (Settings) do not weigh on the first load. Until the chunk
 * arrives it renders nothing; the service worker precaches every chunk, so this works
 * offline too.
 *
 * @param load the dynamic import of the component
 * @returns a component that renders the loaded one with the same props
 */
export function lazyComponent<P extends object>(
  load: () => Promise<ComponentType<P>>,
): ComponentType<P> {
  let loaded: ComponentType<P> | null = null;
  let loading: Promise<ComponentType<P>> | null = null;
  return function Lazy(props: P) {
    const [component, setComponent] = useState<ComponentType<P> | null>(() => loaded);
    useEffect(() => {
      if (component) return;
      let current = true;
      loading ??= load().then((found) => (loaded = found));
      loading.then((found) => current && setComponent(() => found), (error) => {
        loading = null; // a failed fetch (offline, mid-deploy) is retried on the next render
        console.error(error);
      });
      return () => {
        current = false;
      };
    }, [component]);
    const Loaded = component;
    return Loaded ? <Loaded {...props} /> : null;
  };
}
