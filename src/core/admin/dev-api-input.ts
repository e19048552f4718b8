import { MAX_JSON_DEPTH, nestsDeeperThan } from '../config/json-depth.js';
import { duplicateKey } from '../config/json-duplicate-key.js';
import { headerValue, type EmulatorRequest, type EmulatorResponse } from '../service/exchange.js';
import { compressedBody } from '../service/content-coding.js';
import { createProblem } from '../service/problems.js';
import { invalid, problem, refuse } from './dev-api-answers.js';
import type { PathItem, QueryParam } from './dev-api-route.js';

/** What was read, or the problem to answer instead. */
export type Read<T> = { ok: true; value: T } | { ok: false; response: EmulatorResponse };

const refused = (response: EmulatorResponse): Read<never> => ({ ok: false, response });

/**
 * The query parameters a route declares, read in the order it declares them: the first that does
 * not fit (given twice, out of bounds, not a choice) is the problem answered. Others are ignored.
 */
export function readQuery(
  query: string,
  declared: Readonly<Record<string, QueryParam>>,
  path: string,
): Read<Record<string, string | number | undefined>> {
  const params = new URLSearchParams(query);
  const values: Record<string, string | number | undefined> = {};
  for (const [name, param] of Object.entries(declared)) {
    const texts = params.getAll(name);
    if (texts.length > 1) return refused(repeated(path, name, texts.length));
    const text = texts[0];
    const fault = text === undefined ? undefined : misfit(name, param, text);
    if (fault !== undefined) return refused(invalid(path, [fault]));
    values[name] =
      text === undefined
        ? param.kind === 'whole'
          ? param.fallback
          : undefined
        : param.kind === 'whole'
          ? Number(text)
          : text;
  }
  return { ok: true, value: values };
}

/** Why `text` does not fit `param`, or undefined when it does. */
function misfit(name: string, param: QueryParam, text: string) {
  const fault = (detail: string) => ({ detail, pointer: `#/${name}`, parameter: name });
  if (param.kind === 'whole') {
    const value = Number(text);
    return /^\d+$/.test(text) &&
      Number.isSafeInteger(value) &&
      value >= param.min &&
      value <= param.max
      ? undefined
      : fault(
          `${name} must be a whole number from ${param.min} to ${param.max}; got ${JSON.stringify(text)}`,
        );
  }
  if (param.kind === 'choice')
    return param.choices.includes(text)
      ? undefined
      : fault(`${name} must be one of ${param.choices.join(', ')}; got ${JSON.stringify(text)}`);
  return text.length <= param.maxLength
    ? undefined
    : fault(`${name} must be at most ${param.maxLength} characters; got ${text.length}`);
}

/** A query parameter given more than once: which one to use would be a guess. */
function repeated(path: string, name: string, count: number): EmulatorResponse {
  const detail = `${name} is given ${count} times; give it once`;
  return problem(
    createProblem('duplicate-parameter', detail, {
      instance: path,
      errors: [{ detail, pointer: `#/${name}`, parameter: name }],
    }),
  );
}

/** The item of a path, percent-decoded. */
export function decodeItem(encoded: string, path: string): Read<string> {
  try {
    return { ok: true, value: decodeURIComponent(encoded) };
  } catch {
    return refused(
      refuse('invalid-request', `the path ${path} is not validly percent-encoded`, path),
    );
  }
}

/** The 400 of a path item past its bound, or undefined. */
export function itemMisfit(
  value: string,
  item: PathItem,
  name: string,
  path: string,
): EmulatorResponse | undefined {
  if (value.length <= item.maxLength) return undefined;
  const detail = `the ${name} must be at most ${item.maxLength} characters; got ${value.length}`;
  return invalid(path, [{ detail, pointer: `#/${name}`, parameter: name }]);
}

/** The 415 for a body that is not `application/json`, or undefined. */
function notJson(request: EmulatorRequest, path: string): EmulatorResponse | undefined {
  const type = headerValue(request.headers, 'content-type');
  const media = (type?.split(';')[0] ?? '').trim().toLowerCase();
  if (media === 'application/json') return undefined;
  const given = type === undefined ? 'no Content-Type' : `Content-Type ${JSON.stringify(type)}`;
  const detail = `the dev API takes JSON bodies with Content-Type: application/json; got ${given}`;
  return refuse('unsupported-media-type', detail, path);
}

/** The 415 for a body in a content coding (gzip), which is not read, or undefined. */
function compressed(request: EmulatorRequest, path: string): EmulatorResponse | undefined {
  const detail = compressedBody(request);
  return detail === undefined ? undefined : refuse('unsupported-media-type', detail, path);
}

/**
 * The 415 for a body uas does not read, or undefined: one not `application/json`, or in a content
 * coding. A write that reads no body refuses such a one too.
 */
export function unreadBody(request: EmulatorRequest, path: string): EmulatorResponse | undefined {
  return notJson(request, path) ?? compressed(request, path);
}

/** The parsed JSON body, or the problem to answer: it must be `application/json`, uncompressed and valid. */
export function readJsonBody(request: EmulatorRequest, path: string): Read<unknown> {
  const refusal = unreadBody(request, path);
  if (refusal !== undefined) return refused(refusal);
  const text = (request.body ?? '').replace(/^\uFEFF/, '');
  if (nestsDeeperThan(text))
    return refused(
      invalid(path, [
        { detail: `the body nests deeper than ${MAX_JSON_DEPTH} levels`, pointer: '#' },
      ]),
    );
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const detail = `the body is not valid JSON: ${(error as Error).message}`;
    return refused(refuse('malformed-json', detail, path));
  }
  const twice = duplicateKey(text);
  if (twice !== undefined) {
    const key = JSON.stringify(twice.key.slice(0, 64));
    const detail = `the body gives ${key} twice in one object; only one of them would count, so give it once`;
    return refused(invalid(path, [{ detail, pointer: twice.pointer }]));
  }
  return { ok: true, value };
}
