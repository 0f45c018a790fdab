import type { z } from 'zod';
import { invalidInput } from '../errors';

/**
 * Parses request input with a zod schema. The first problem's message becomes the 400 answer, so
 * schemas carry the spec's words as their messages.
 */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  const result = schema.safeParse(input ?? {});
  if (!result.success) {
    const issue = result.error.issues[0];
    throw invalidInput(issue?.message ?? 'Invalid input', { field: issue?.path.join('.') });
  }
  return result.data;
}
