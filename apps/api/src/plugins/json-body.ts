import type { FastifyInstance } from 'fastify';
import { AppError } from '../lib/errors';

/**
 * How deep a JSON body may nest, the body itself being level 1. The deepest shape any contract
 * accepts is a handful of levels (a body, its lines, their quantities); 64 leaves room for every
 * shape to come, while the walks that follow parsing (the unsafe-text hook in app.ts, zod, the
 * services) recurse once or more per level and overflowed the stack at a few thousand.
 */
export const MAX_JSON_DEPTH = 64;
export const JSON_DEPTH_DETAIL = `The request body is nested deeper than ${MAX_JSON_DEPTH} levels.`;

/**
 * Whether JSON text opens more than `max` arrays or objects inside one another: one pass over the
 * text counting brackets outside strings, no recursion and no allocation, so it costs what reading
 * the body costs. It does not validate: malformed text is for the parser to refuse.
 */
export function nestedDeeperThan(text: string, max: number): boolean {
  // Fewer characters than levels allowed cannot open more of them.
  if (text.length <= max) return false;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // a backslash: the next character is escaped, a quote included
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

/**
 * The JSON body parser of every route: Fastify's own (the body limit, the refusals of empty and
 * malformed JSON and of `__proto__`, all unchanged), after the depth is checked on the raw text,
 * so nothing ever walks a body nested deeper than MAX_JSON_DEPTH. A refusal is a 400 parse_error,
 * as malformed JSON is. A scope that needs the raw bytes (Stripe's webhook) removes this parser
 * and adds its own.
 */
export function registerJsonBody(app: FastifyInstance) {
  const parse = app.getDefaultJsonParser(app.initialConfig.onProtoPoisoning ?? 'error', app.initialConfig.onConstructorPoisoning ?? 'error');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body as string; // parseAs: 'string'
    if (nestedDeeperThan(text, MAX_JSON_DEPTH)) {
      done(new AppError('parse_error', JSON_DEPTH_DETAIL), undefined);
      return;
    }
    parse(request, text, done);
  });
}
