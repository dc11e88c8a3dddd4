import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { deployDir, read } from './deploy-files.ts';

/**
 * deploy/k6: k6 is not on this machine (it runs on operators' machines), so the scripts are checked
 * as the JavaScript modules k6 loads: they parse, import only k6's modules and files beside them, and
 * a test script exports its options and a default function.
 */
const dir = path.join(deployDir, 'k6');
const scripts = readdirSync(dir).filter((file) => file.endsWith('.js'));

const moduleOf = (file: string) => {
  const text = read(`k6/${file}`);
  const parsed = ts.transpileModule(text, {
    reportDiagnostics: true,
    fileName: file,
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, allowJs: true },
  });
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true, ts.ScriptKind.JS);
  const imports = source.statements.filter(ts.isImportDeclaration).map((statement) => (statement.moduleSpecifier as ts.StringLiteral).text);
  const exported = source.statements.flatMap((statement) => {
    const exporting = ts.canHaveModifiers(statement) && ts.getModifiers(statement)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
    if (!exporting) return [];
    const isDefault = ts.getModifiers(statement)!.some((m) => m.kind === ts.SyntaxKind.DefaultKeyword);
    if (isDefault) return ['default'];
    if (ts.isFunctionDeclaration(statement)) return [statement.name!.text];
    if (ts.isVariableStatement(statement)) return statement.declarationList.declarations.map((d) => (d.name as ts.Identifier).text);
    return [];
  });
  return { errors: (parsed.diagnostics ?? []).map((d) => ts.flattenDiagnosticMessageText(d.messageText, ' ')), imports, exported };
};

describe('the k6 scripts', () => {
  it('are the reads and the writes, with what they share', () => {
    expect(scripts.sort()).toEqual(['lib.js', 'reads.js', 'writes.js']);
  });

  for (const file of scripts) {
    it(`${file} parses as a module importing only k6's modules and files beside it`, () => {
      const module = moduleOf(file);
      expect(module.errors).toEqual([]);
      for (const name of module.imports) {
        if (name.startsWith('./')) expect(existsSync(path.join(dir, name)), name).toBe(true);
        else expect(name).toMatch(/^k6(\/[a-z]+)?$/);
      }
    });
  }

  for (const file of ['reads.js', 'writes.js']) {
    it(`${file} exports its options, setup and the function each virtual user runs`, () => {
      expect(moduleOf(file).exported.sort()).toEqual(['default', 'options', 'setup']);
    });
  }

  it('are refused when they do not parse', () => {
    const broken = ts.transpileModule('export default function ( {', { reportDiagnostics: true, compilerOptions: { module: ts.ModuleKind.ESNext } });
    expect(broken.diagnostics!.length).toBeGreaterThan(0);
  });
});
