/** Default port of `uas serve`, and of the target of `uas call`. */
export const DEFAULT_PORT = 4010;

/** The default target of `uas call`, `code`, `top` and `conform`: the local emulator. */
export const DEFAULT_URL = `http://127.0.0.1:${DEFAULT_PORT}`;
