/**
 * The command line of both oracles' golden generators: write the golden file, or with --check compare it
 * with what the upstream code gives now and exit 1 on any difference (the e2e suite's way is its own test).
 */
import * as fs from 'node:fs';

export function writeOrCheckGolden(file: string, text: string, upstream: string): void {
  if (!process.argv.includes('--check')) {
    fs.writeFileSync(file, text);
    process.stdout.write(`wrote ${file}\n`);
    return;
  }
  const current = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
  if (current !== text) {
    process.stderr.write(`${file} differs from what ${upstream} gives now: regenerate it\n`);
    process.exit(1);
  }
  process.stdout.write(`${file} matches ${upstream}\n`);
}
