/**
 * Sets `name` on a plain object as its own property. Assigning `__proto__` would set the object's
 * prototype instead (or do nothing), and a field a client sent under that name would be lost.
 */
export function setOwnField(target: Record<string, unknown>, name: string, value: unknown): void {
  if (name === '__proto__')
    Object.defineProperty(target, name, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  else target[name] = value;
}
