import { describe, expect, it } from 'vitest';
import { jsonForScript } from './json-script';

describe('jsonForScript', () => {
  it('writes hostile text so that it cannot leave its script, and reads back as it was', () => {
    const hostile = { text: '</script><script>alert(1)</script><!-- & \u0000 \ud800 \u2028 \u2029 >' };
    const written = jsonForScript(hostile);
    expect(written).not.toMatch(/[<>&\u2028\u2029]/);
    expect(written).not.toContain('\u0000');
    expect(written).toContain('\\u0000');
    expect(written).not.toMatch(/\ud800(?![\udc00-\udfff])/);
    expect(written).toContain('\\u003c/script\\u003e');
    expect(JSON.parse(written)).toEqual(hostile);
  });
});
