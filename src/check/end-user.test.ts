import { describe, expect, it } from 'vitest';
import { recordMaker, unauthenticatedRecord } from '../../test/helpers/check-records.js';
import { endUserLabel, endUserOf } from './end-user.js';

describe('endUserOf', () => {
  const make = recordMaker();

  it('is the lower-cased e-mail within the client', () => {
    const mixed = make({ at: 0, email: ' Alice@Example.COM ' });
    expect(endUserOf(mixed)).toBe(endUserOf(make({ at: 0, email: 'alice@example.com' })));
    expect(endUserOf(mixed)).not.toBe(
      endUserOf(make({ at: 0, email: 'alice@example.com', clientId: 'other' })),
    );
  });

  it('is the phone number of an exists by phone', () => {
    expect(endUserLabel(make({ at: 0, phone: '+1 415 555-0101' }))).toBe('phone +14155550101');
  });

  it('is unknown without e-mail, phone or client', () => {
    expect(endUserOf(make({ at: 0 }))).toBeUndefined();
    expect(endUserOf(unauthenticatedRecord(1, 0))).toBeUndefined();
  });
});
