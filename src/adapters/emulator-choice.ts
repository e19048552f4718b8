/**
 * The emulator options given beside an `emulator` to `caller` (createHandlers, createMiddleware),
 * refused with a TypeError: the emulator was made with its own options, and these would be left
 * out without a word.
 */
export function refuseOptionsBesideEmulator(
  caller: string,
  emulatorOptions: Record<string, unknown>,
): void {
  const ignored = Object.keys(emulatorOptions).filter(
    (name) => emulatorOptions[name] !== undefined,
  );
  if (ignored.length > 0)
    throw new TypeError(
      `${caller} takes either an emulator or the options to make one; ${ignored.join(', ')} would not reach the emulator given: pass ${ignored.length === 1 ? 'it' : 'them'} to createEmulator`,
    );
}
