import { Token, type BareItem, type Item } from 'structured-headers';

/** Reads the fields of one answer, writing down each way they are malformed in `problems`. */
export interface FieldReader {
  /** Each way the fields read so far are malformed. */
  problems: string[];
  /** The value of a field; missing is a problem. */
  read(name: string): string | undefined;
  /** A value parsed as a Structured Field `kind` by `parser`; one that does not parse is a problem. */
  parse<T>(name: string, value: string, kind: string, parser: (text: string) => T): T | undefined;
}

/** A reader of the fields `get` gives (null or undefined: absent). */
export function createFieldReader(get: (name: string) => string | null | undefined): FieldReader {
  const problems: string[] = [];
  return {
    problems,
    read(name) {
      const value = get(name) ?? undefined;
      if (value === undefined) problems.push(`${name} is missing`);
      return value;
    },
    parse(name, value, kind, parser) {
      try {
        return parser(value);
      } catch (error) {
        problems.push(
          `${name} ${JSON.stringify(value)} is not a Structured Field ${kind}: ${(error as Error).message}`,
        );
        return undefined;
      }
    },
  };
}

/** Whether an item is a whole number (zero included). */
export const isWhole = (value: BareItem | undefined): value is number =>
  typeof value === 'number' && Number.isInteger(value) && value >= 0;

const nameOf = (value: BareItem): string | undefined =>
  typeof value === 'string' ? value : value instanceof Token ? value.toString() : undefined;

/** The name of a List member: a string or a token; undefined for an inner list or another item. */
export function itemName(member: Item | [Item[], unknown]): string | undefined {
  if (Array.isArray(member[0])) return undefined;
  return nameOf(member[0] as BareItem);
}

/** A parameter of a List member. */
export function itemParameter(
  member: Item | [Item[], Map<string, BareItem>],
  name: string,
): BareItem | undefined {
  return (member[1] as Map<string, BareItem>).get(name);
}

/** An item as a problem shows it. */
export function describeItem(value: BareItem | undefined): string {
  if (value === undefined) return 'none';
  if (value instanceof Token) return value.toString();
  return typeof value === 'object' ? String(value) : JSON.stringify(value);
}
