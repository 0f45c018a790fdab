import type { FastifySchemaCompiler } from 'fastify';
import type { z } from 'zod';
import { invalidInput } from '../errors';

/**
 * Parses input with a zod schema. The first problem's message becomes the 400 answer, so schemas
 * carry the spec's words as their messages. An absent body or query reads as empty.
 */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  const result = schema.safeParse(input ?? {});
  if (!result.success) {
    const issue = result.error.issues[0];
    throw invalidInput(issue?.message ?? 'Invalid input', { field: issue?.path.join('.') });
  }
  return result.data;
}

/** Each route's request schemas (zod, typed by the zod type provider) checked as parseInput does. */
export const validatorCompiler: FastifySchemaCompiler<z.ZodType> =
  ({ schema }) =>
  (data) => {
    try {
      return { value: parseInput(schema, data) };
    } catch (error) {
      return { error: error as Error };
    }
  };
