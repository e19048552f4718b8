import type { ConfigFile } from '../config/config-schema.js';
import { constantTimeEqual } from './constant-time.js';

/** A user known to the emulator. */
export interface User {
  email: string;
  phone_number?: string | undefined;
  token_count: number;
}

/** Clients, their merchants and the users, as configured. Read-only. */
export interface Directory {
  /** The client id of an access token, or undefined when no client has it. */
  clientIdForToken(token: string): string | undefined;
  /** The client that owns a merchant (ids compared case-insensitively), or undefined. */
  merchantOwner(merchantId: string): string | undefined;
  userByEmail(email: string): User | undefined;
  userByPhone(phone: string): User | undefined;
  /** Adds users, or replaces those with the same e-mail (the dev API's `POST /__uas/users`). */
  addUsers(users: ConfigFile['users']): { added: number; replaced: number };
  /**
   * Removes the user with this e-mail (case-insensitively), and its phone number with it: the
   * user removed, or undefined when none had it (the dev API's `DELETE /__uas/users/{email}`).
   */
  removeUser(email: string): User | undefined;
  /** Whether a user has this e-mail (case-insensitively). */
  hasUser(email: string): boolean;
  /**
   * At most `limit` users from the `offset`-th, in the order they were added (one replaced keeps
   * its place): the config's, then those added live.
   */
  listUsers(offset: number, limit: number): User[];
  /** Users held. */
  readonly users: number;
}

/** Builds the directory from the config's clients and users. */
export function createDirectory(config: Pick<ConfigFile, 'clients' | 'users'>): Directory {
  const tokens = config.clients.map((client) => ({ token: client.token, id: client.id }));
  const merchants = new Map<string, string>();
  for (const client of config.clients) {
    for (const merchant of client.merchants) merchants.set(merchant.toLowerCase(), client.id);
  }
  const byEmail = new Map<string, User>();
  const byPhone = new Map<string, User>();
  const addUsers = (users: ConfigFile['users']) => {
    let replaced = 0;
    for (const user of users) {
      const record = {
        email: user.email,
        phone_number: user.phone_number,
        token_count: user.token_count ?? 0,
      };
      const key = user.email.toLowerCase();
      const before = byEmail.get(key);
      if (before !== undefined) {
        replaced++;
        // Its phone number goes with the user it replaces, unless it keeps it.
        if (before.phone_number !== undefined && byPhone.get(before.phone_number) === before)
          byPhone.delete(before.phone_number);
      }
      byEmail.set(key, record);
      if (user.phone_number !== undefined) byPhone.set(user.phone_number, record);
    }
    return { added: users.length - replaced, replaced };
  };
  addUsers(config.users);
  return {
    clientIdForToken(token) {
      // Every configured token is compared, in constant time, so timing tells nothing of which
      // token came close. Configs hold a handful of clients, so the linear scan costs nothing.
      let found: string | undefined;
      for (const entry of tokens) {
        if (constantTimeEqual(entry.token, token)) found = entry.id;
      }
      return found;
    },
    merchantOwner: (merchantId) => merchants.get(merchantId.toLowerCase()),
    userByEmail: (email) => byEmail.get(email.toLowerCase()),
    userByPhone: (phone) => byPhone.get(phone),
    addUsers,
    removeUser(email) {
      const user = byEmail.get(email.toLowerCase());
      if (user === undefined) return undefined;
      byEmail.delete(email.toLowerCase());
      if (user.phone_number !== undefined && byPhone.get(user.phone_number) === user)
        byPhone.delete(user.phone_number);
      return user;
    },
    hasUser: (email) => byEmail.has(email.toLowerCase()),
    listUsers(offset, limit) {
      const page: User[] = [];
      if (offset >= byEmail.size) return page;
      let index = 0;
      for (const user of byEmail.values()) {
        if (index++ < offset) continue;
        if (page.length === limit) break;
        page.push(user);
      }
      return page;
    },
    get users() {
      return byEmail.size;
    },
  };
}
