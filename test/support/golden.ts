/**
 * Golden files of the plan report: the test fails on any difference, naming the file and how to accept an
 * intended change (METALSLICE_UPDATE_GOLDEN=1 rewrites them; review the diff before committing).
 */
import { expect } from '@jest/globals';
import * as fs from 'fs';
import * as path from 'path';

export const GOLDEN_DIR = path.join(__dirname, '..', 'golden', 'report');

export function expectGolden(name: string, text: string): void {
  const file = path.join(GOLDEN_DIR, name);
  if (process.env.METALSLICE_UPDATE_GOLDEN === '1') {
    fs.mkdirSync(GOLDEN_DIR, { recursive: true });
    fs.writeFileSync(file, text);
    return;
  }
  if (!fs.existsSync(file)) throw new Error(`golden file ${file} is missing: run with METALSLICE_UPDATE_GOLDEN=1 to write it`);
  // toBe prints the first difference; the hint names the file.
  expect({ file: name, text }).toEqual({ file: name, text: fs.readFileSync(file, 'utf8') });
}
