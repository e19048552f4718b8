import type { RequestRecord } from '../core/records/records.js';

/**
 * The end-user behind a request, as far as a record tells: its e-mail (lower-cased), or the phone
 * number of an exists by phone, scoped to the client (two merchants' shoppers with one address
 * are two end-users to the service). Undefined when the request names neither, or was not
 * authenticated (then nothing of it was read).
 */
export function endUserOf(record: RequestRecord): string | undefined {
  if (record.client_id === undefined) return undefined;
  const label = endUserLabel(record);
  return label === undefined ? undefined : `${record.client_id}\n${label}`;
}

/** How {@link endUserOf} names the end-user inside its client: the e-mail or the phone number. */
export function endUserLabel(record: RequestRecord): string | undefined {
  const email = record.email?.trim().toLowerCase();
  if (email !== undefined && email !== '') return email;
  const phone = record.phone_number?.replace(/[\s().-]/g, '');
  return phone === undefined || phone === '' ? undefined : `phone ${phone}`;
}
