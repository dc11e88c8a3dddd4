import { describe, expect, it, vi } from 'vitest';

describe('parse-without-eval', () => {
  it("turns zod's compiled parsers off for the zod loaded after it", async () => {
    await import('./parse-without-eval.ts');
    const { config, z } = await import('zod');
    expect(config().jitless).toBe(true);
    expect(config()).toBe((globalThis as { __zod_globalConfig?: object }).__zod_globalConfig);
    // an object schema parses without building a parser with Function (what a page's CSP refuses)
    const compile = vi.spyOn(globalThis, 'Function');
    expect(z.object({ name: z.string() }).parse({ name: 'Ann' })).toEqual({ name: 'Ann' });
    expect(compile).not.toHaveBeenCalled();
    compile.mockRestore();
  });
});
