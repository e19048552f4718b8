/**
 * What to tell a person whose dev API admin token is missing (`tokenSent` false) or refused, in
 * the CLI's words: the flag and the environment variable, never a library option.
 */
export function adminTokenProblem(tokenSent: boolean): string {
  return tokenSent
    ? 'the dev API refused the admin token: check --admin-token or UAS_ADMIN_TOKEN'
    : 'the dev API needs an admin token: pass --admin-token or set UAS_ADMIN_TOKEN';
}
