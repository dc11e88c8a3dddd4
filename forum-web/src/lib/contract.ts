import type { StandardSchemaV1 } from '@standard-schema/spec';
import type * as Schemas from './contract-schemas';

type SchemaName = keyof typeof Schemas;
/** What a schema's answer is, once checked (RTK Query types a response schema by its output). */
type Output<N extends SchemaName> = StandardSchemaV1.InferOutput<(typeof Schemas)[N]>;

let schemas: Promise<typeof Schemas> | undefined;

/**
 * A contract's response schema for RTK Query's `responseSchema`, loaded with the first answer
 * that needs one: the page renders before zod has arrived, and every answer is still checked.
 */
export function contract<N extends SchemaName>(name: N): StandardSchemaV1<Output<N>, Output<N>> {
  return {
    '~standard': {
      version: 1,
      vendor: 'forum-contracts',
      validate: async (value) => {
        schemas ??= import('./contract-schemas');
        const schema = (await schemas)[name] as StandardSchemaV1<unknown, Output<N>>;
        return schema['~standard'].validate(value);
      },
    },
  };
}
