/**
 * What the standalone executable's build (`npm run build:standalone`) writes into it: the
 * versions of the optional packages it holds. Absent when uas runs from its package.
 */
declare const UAS_STANDALONE: { packages: Record<string, string> } | undefined;

/** The standalone executable's build, when this CLI runs inside one. */
export const STANDALONE = typeof UAS_STANDALONE === 'object' ? UAS_STANDALONE : undefined;
