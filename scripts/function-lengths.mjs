#!/usr/bin/env node
// Lists the functions of app/ and server/ (tests aside) longer than a screen, longest first:
// `node scripts/function-lengths.mjs [--over N]` (80 lines unless told). A function counts every line from its
// first to its last, the functions inside it included. Exits 1 when one is over.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const SCREEN_LINES = 80;
const FOLDERS = ["app", "server"];

const isSource = (file) =>
  /\.(ts|tsx|mts|mjs)$/.test(file) && !/\.(test|spec)\.[mc]?tsx?$/.test(file) && !file.endsWith(".d.ts");

function* sourceFiles(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== "node_modules" && !entry.name.startsWith(".")) yield* sourceFiles(full);
    } else if (isSource(entry.name)) yield full;
  }
}

/** A function's name as a reader finds it: its own, its variable's, its property's or method's. */
function nameOf(node) {
  if (node.name) return node.name.getText();
  const parent = node.parent;
  if (
    parent &&
    (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent))
  )
    return parent.name.getText();
  if (parent && ts.isCallExpression(parent)) return `${nameOf(parent) ?? parent.expression.getText().slice(0, 40)}(…)`;
  return undefined;
}

/** Every function of one file with its length in lines. */
export function functionLengths(file) {
  const text = readFileSync(file, "utf8");
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found = [];
  const visit = (node) => {
    if (ts.isFunctionLike(node) && "body" in node && node.body) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      found.push({
        file: path.relative(root, file),
        line: first + 1,
        name: nameOf(node) ?? "(anonymous)",
        lines: last - first + 1,
      });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The functions of app/ and server/ longer than `limit` lines, longest first. */
export function functionsOver(limit = SCREEN_LINES) {
  return FOLDERS.flatMap((folder) => [...sourceFiles(path.join(root, folder))])
    .flatMap(functionLengths)
    .filter((fn) => fn.lines > limit)
    .sort((a, b) => b.lines - a.lines);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const at = process.argv.indexOf("--over");
  const limit = at > 0 ? Number(process.argv[at + 1]) : SCREEN_LINES;
  const over = functionsOver(limit);
  for (const fn of over) console.log(`${String(fn.lines).padStart(4)}  ${fn.name}  ${fn.file}:${fn.line}`);
  console.log(`${over.length} function(s) over ${limit} lines in ${FOLDERS.join("/ and ")}/`);
  process.exitCode = over.length > 0 ? 1 : 0;
}
