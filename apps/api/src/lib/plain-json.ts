/**
 * Route option for the hottest routes (a hold, the cart): the answer is written by JSON.stringify
 * instead of being parsed again by its zod schema first, which cost about a quarter of the API's
 * CPU per hold (measured with npm run bench and a CPU profile). The schema still documents the
 * route and types its handler (TypeScript checks the returned value against it), and the route's
 * tests parse the answer with the same schema.
 */
export const plainJson = {
  serializerCompiler: () => (data: unknown) => JSON.stringify(data),
};
