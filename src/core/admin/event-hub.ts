/** A minimal synchronous publish/subscribe hub. */
export interface EventHub<T> {
  /** Adds a listener; returns the function that removes it. */
  subscribe(listener: (event: T) => void): () => void;
  emit(event: T): void;
  /** Whether anyone listens, so emitters can skip building events nobody reads. */
  readonly active: boolean;
}

/**
 * Creates an {@link EventHub}. A listener that throws does not stop the others. `onActive` hears
 * when the first listener comes and when the last one goes.
 */
export function createEventHub<T>(
  onListenerError: (error: unknown) => void = () => {},
  onActive: (active: boolean) => void = () => {},
): EventHub<T> {
  const listeners = new Set<(event: T) => void>();
  return {
    subscribe(listener) {
      // Told when the hub had none: the same listener subscribed again is no second first one.
      const first = listeners.size === 0;
      listeners.add(listener);
      if (first) onActive(true);
      return () => {
        if (listeners.delete(listener) && listeners.size === 0) onActive(false);
      };
    },
    emit(event) {
      for (const listener of listeners) {
        try {
          listener(event);
        } catch (error) {
          onListenerError(error);
        }
      }
    },
    get active() {
      return listeners.size > 0;
    },
  };
}
