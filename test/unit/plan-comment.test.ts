import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { spawn, spawnSync } from 'child_process';
import * as fs from 'fs';
import * as http from 'http';
import { AddressInfo } from 'net';
import * as os from 'os';
import * as path from 'path';
import { parse } from 'yaml';
import { REPO_ROOT } from '../support/models';

// examples/ci/plan-comment.sh end to end: a git repo whose base branch has 6 workers and whose change has 7,
// the script run twice against a stand-in of GitHub's comments API. It must compare with the base branch
// (diff first), post one comment, and update that same comment on the second run instead of adding one.

interface Call {
  method: string;
  url: string;
  body: string;
}

interface Comment {
  id: number;
  body: string;
  user: { login: string };
}

/**
 * A stand-in of GitHub's API: GET /user (the token's login, or 403 as for GitHub Actions' GITHUB_TOKEN), the
 * pull request's comments in pages (`per_page`, `page`, and a Link header as GitHub sends), POST and PATCH. Like
 * a repository admin's token, it lets any comment be edited: the script must choose the right one itself.
 */
function fakeGitHub(calls: Call[], opts: { login?: string; comments?: Comment[] } = {}) {
  const comments: Comment[] = opts.comments ?? [];
  const login = opts.login ?? 'github-actions[bot]';
  let nextId = 4242;
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => {
      calls.push({ method: req.method ?? '', url: req.url ?? '', body });
      const url = new URL(req.url ?? '/', 'http://x');
      if (req.method === 'GET' && url.pathname === '/user') {
        if (opts.login === undefined) res.statusCode = 403;
        res.end(JSON.stringify(opts.login === undefined ? { message: 'Resource not accessible by integration' } : { login }));
      } else if (req.method === 'GET') {
        const perPage = Number(url.searchParams.get('per_page') ?? 30);
        const page = Number(url.searchParams.get('page') ?? 1);
        if (page * perPage < comments.length) res.setHeader('Link', `<http://x${url.pathname}?per_page=${perPage}&page=${page + 1}>; rel="next"`);
        res.end(JSON.stringify(comments.slice((page - 1) * perPage, page * perPage)));
      } else if (req.method === 'POST') {
        comments.push({ id: nextId++, body: (JSON.parse(body) as { body: string }).body, user: { login } });
        res.end('{}');
      } else {
        const id = Number(/\/issues\/comments\/(\d+)$/.exec(url.pathname)?.[1]);
        const target = comments.find((c) => c.id === id);
        if (target) target.body = (JSON.parse(body) as { body: string }).body;
        res.statusCode = target ? 200 : 404;
        res.end('{}');
      }
    });
  });
  return server;
}

function runScript(cwd: string, env: Record<string, string>): Promise<{ code: number | null; stderr: string; stdout: string }> {
  return runScriptIn('all', cwd, env);
}

function runScriptIn(mode: string, cwd: string, env: Record<string, string>): Promise<{ code: number | null; stderr: string; stdout: string }> {
  // The script's own GitHub Actions variables come from each test, never from the CI that runs the tests.
  // Charts are drawn by headless Chromium, which the e2e tests run (test/e2e/report-screenshot.test.ts).
  const base = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !/^(GITHUB_|ANNOTATIONS$|FAIL_ON_PROBLEMS$|RENDER_CHARTS$|CHROMIUM$|GH_TOKEN$|COMMENT_AUTHOR$)/.test(k)),
  );
  return new Promise((resolve) => {
    const child = spawn('bash', [path.join(REPO_ROOT, 'examples', 'ci', 'plan-comment.sh'), mode], { cwd, env: { ...base, RENDER_CHARTS: 'false', ...env } });
    let stderr = '';
    let stdout = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.on('close', (code) => resolve({ code, stderr, stdout }));
  });
}

function git(cwd: string, ...args: string[]): void {
  const r = spawnSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { cwd, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
}

describe('examples/ci/plan-comment.sh', () => {
  const repo = fs.mkdtempSync(path.join(os.tmpdir(), 'metalslice-pr-'));
  const calls: Call[] = [];
  const server = fakeGitHub(calls, { login: 'metalslice-bot' });

  beforeAll(async () => {
    fs.cpSync(path.join(REPO_ROOT, 'examples', 'inventory'), path.join(repo, 'inventory'), { recursive: true });
    const config = fs.readFileSync(path.join(REPO_ROOT, 'examples', 'metalslice.yaml'), 'utf8');
    fs.writeFileSync(path.join(repo, 'metalslice.yaml'), config);
    const git = (...args: string[]) => {
      const r = spawnSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { cwd: repo, encoding: 'utf8' });
      if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
    };
    git('init', '--quiet', '--initial-branch', 'main');
    git('add', '.');
    git('commit', '--quiet', '-m', 'base');
    git('checkout', '--quiet', '-b', 'change');
    expect(config).toContain('count: 6}');
    fs.writeFileSync(path.join(repo, 'metalslice.yaml'), config.replace('count: 6}', 'count: 7}'));
    git('commit', '--quiet', '-am', 'one more worker');
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });

  afterAll(() => {
    server.close();
    fs.rmSync(repo, { recursive: true, force: true });
  });

  it('posts one comment that starts with the change against the base branch, then updates it', async () => {
    const env = {
      METALSLICE: `${process.execPath} ${path.join(REPO_ROOT, 'bin', 'metalslice')}`,
      METALSLICE_CONFIG: 'metalslice.yaml',
      BASE_REF: 'main',
      OUT: 'review',
      GITHUB_TOKEN: 'not-a-real-token',
      GITHUB_REPOSITORY: 'acme/fleet',
      PR_NUMBER: '7',
      GITHUB_API_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    };
    const first = await runScript(repo, env);
    expect(first.stderr).toContain('posted a new comment');
    expect(first.code).toBe(0);
    const comment = fs.readFileSync(path.join(repo, 'review', 'comment.md'), 'utf8');
    expect(comment.startsWith('<!-- metalslice-plan-review -->\n# metalslice capacity plan')).toBe(true);
    const changes = comment.indexOf('## Changes since the previous plan');
    expect(changes).toBeGreaterThan(0);
    expect(changes).toBeLessThan(comment.indexOf('## Fleets'));
    expect(comment).toContain('- pool team-a-workers: 6 → 7 nodes, 1 added');
    expect(comment.length).toBeLessThanOrEqual(60_000 + '<!-- metalslice-plan-review -->\n'.length);
    expect(fs.existsSync(path.join(repo, 'review', 'plan.md'))).toBe(true);

    const second = await runScript(repo, env);
    expect(second.code).toBe(0);
    expect(second.stderr).toContain('updated comment 4242');
    expect(calls.map((c) => `${c.method} ${c.url.replace(/\?.*/, '')}`)).toEqual([
      'GET /user',
      'GET /repos/acme/fleet/issues/7/comments',
      'POST /repos/acme/fleet/issues/7/comments',
      'GET /user',
      'GET /repos/acme/fleet/issues/7/comments',
      'PATCH /repos/acme/fleet/issues/comments/4242',
    ]);
    expect(calls.every((c) => !c.body.includes('not-a-real-token'))).toBe(true);
    // The worktree of the base branch is gone again.
    expect(spawnSync('git', ['worktree', 'list'], { cwd: repo, encoding: 'utf8' }).stdout.trim().split('\n')).toHaveLength(1);
  }, 60_000);

  it('stops with the CLI exit code when metalslice cannot run, instead of posting an empty comment', async () => {
    const before = calls.length;
    const result = await runScript(repo, {
      METALSLICE: `${process.execPath} ${path.join(REPO_ROOT, 'bin', 'metalslice')}`,
      METALSLICE_CONFIG: 'missing.yaml',
      OUT: 'review-missing',
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('metalslice plan failed (exit 2)');
    expect(calls.length).toBe(before);
  }, 30_000);
});

// A config committed as a symlink to a file holding a secret (a token file, or the process environment): the
// plan fails, and the comment says why, but the secret appears nowhere in what is posted or written.
describe('examples/ci/plan-comment.sh on a config that is a symlink to a secret', () => {
  const FAKE_TOKEN = 'ghp_FAKEtoken0123456789abcdefghijklmnopqr';
  const calls: Call[] = [];
  const server = fakeGitHub(calls);
  const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'metalslice-secret-'));

  beforeAll(async () => {
    fs.writeFileSync(path.join(outside, 'token.env'), `GITHUB_TOKEN=${FAKE_TOKEN}\nAWS_SECRET_ACCESS_KEY=also-secret\n`);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });

  afterAll(() => {
    server.close();
    fs.rmSync(outside, { recursive: true, force: true });
  });

  it.each([
    ['a token file', () => path.join(outside, 'token.env')],
    ['/proc/self/environ', () => '/proc/self/environ'],
  ])(
    'never posts the secret when metalslice.yaml links to %s',
    async (_title, target) => {
      const repo = fs.mkdtempSync(path.join(os.tmpdir(), 'metalslice-pr-link-'));
      try {
        fs.symlinkSync(target(), path.join(repo, 'metalslice.yaml'));
        for (const args of [
          ['init', '--quiet'],
          ['add', '.'],
          ['commit', '--quiet', '-m', 'config'],
        ]) {
          spawnSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { cwd: repo });
        }
        const before = calls.length;
        const result = await runScript(repo, {
          METALSLICE: `${process.execPath} ${path.join(REPO_ROOT, 'bin', 'metalslice')}`,
          METALSLICE_CONFIG: 'metalslice.yaml',
          OUT: 'review',
          GITHUB_TOKEN: FAKE_TOKEN,
          GITHUB_REPOSITORY: 'acme/fleet',
          PR_NUMBER: '8',
          GITHUB_API_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        });
        // The plan fails (the file is no config): the check fails too, after the comment is posted.
        expect(result.code).toBe(1);
        const posted = calls.slice(before).filter((c) => c.method !== 'GET');
        expect(posted).toHaveLength(1);
        const comment = (JSON.parse(posted[0].body) as { body: string }).body;
        expect(comment).toMatch(/`metalslice\.yaml:1:1: \(config\)`: must be a map \(got a string of \d+ characters\)/);
        for (const text of [comment, ...fs.readdirSync(path.join(repo, 'review')).map((f) => fs.readFileSync(path.join(repo, 'review', f), 'utf8'))]) {
          expect(text).not.toContain(FAKE_TOKEN);
          expect(text).not.toContain('also-secret');
          expect(text).not.toContain('GITHUB_TOKEN=');
        }
      } finally {
        fs.rmSync(repo, { recursive: true, force: true });
      }
    },
    60_000,
  );
});

// The merge gate: a change that makes the plan not fit. The comment is posted first, then the job summary is
// written, every problem is annotated at the file, line and column of its config path, and the script exits 1
// so that a required check blocks the merge.
describe('examples/ci/plan-comment.sh as a merge gate on a plan that does not fit', () => {
  const calls: Call[] = [];
  const server = fakeGitHub(calls);
  const repo = fs.mkdtempSync(path.join(os.tmpdir(), 'metalslice-pr-gate-'));
  const config = fs.readFileSync(path.join(REPO_ROOT, 'examples', 'does-not-fit.yaml'), 'utf8');

  beforeAll(async () => {
    fs.mkdirSync(path.join(repo, 'capacity'));
    fs.writeFileSync(path.join(repo, 'capacity', 'metalslice.yaml'), config);
    git(repo, 'init', '--quiet');
    git(repo, 'add', '.');
    git(repo, 'commit', '--quiet', '-m', 'a plan that does not fit');
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });

  afterAll(() => {
    server.close();
    fs.rmSync(repo, { recursive: true, force: true });
  });

  const env = (extra: Record<string, string>) => ({
    METALSLICE: `${process.execPath} ${path.join(REPO_ROOT, 'bin', 'metalslice')}`,
    METALSLICE_CONFIG: 'metalslice.yaml',
    OUT: 'review',
    GITHUB_TOKEN: 'not-a-real-token',
    GITHUB_REPOSITORY: 'acme/fleet',
    PR_NUMBER: '9',
    GITHUB_API_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    ...extra,
  });

  it('posts the comment, writes the summary, annotates each problem at its line and column, then exits 1', async () => {
    const summary = path.join(repo, 'summary.md');
    // Run from a subdirectory, as the action's working-directory does: annotations name files from the checkout root.
    const result = await runScript(path.join(repo, 'capacity'), env({ GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summary, GITHUB_WORKSPACE: repo }));
    expect(result.code).toBe(1);
    expect(calls.map((c) => c.method)).toEqual(['GET', 'GET', 'POST']);
    // The check fails only after the comment is out.
    expect(result.stderr.indexOf('posted a new comment')).toBeLessThan(result.stderr.indexOf('failing the check'));
    expect(fs.readFileSync(summary, 'utf8')).toMatch(/^# metalslice capacity plan\n[\s\S]*## Problems/);

    const plan = JSON.parse(fs.readFileSync(path.join(repo, 'capacity', 'review', 'plan.json'), 'utf8')) as { errors: { path: string }[] };
    const annotations = result.stdout.split('\n').filter((l) => l.startsWith('::error '));
    expect(annotations).toHaveLength(plan.errors.length);
    const lines = config.split('\n');
    for (const [i, a] of annotations.entries()) {
      const m = /^::error file=([^,]+),line=(\d+),col=(\d+),title=[^:]+::(.*)$/.exec(a);
      expect(m).not.toBeNull();
      const [, file, line, col, message] = m!;
      expect(file).toBe('capacity/metalslice.yaml');
      expect(message.startsWith(`${plan.errors[i].path}: `)).toBe(true);
      // The position is where the path's last key is written in the file.
      const lastKey = /([A-Za-z]+)$/.exec(plan.errors[i].path)![1];
      expect(lines[Number(line) - 1].slice(Number(col) - 1)).toMatch(new RegExp(`^${lastKey}:`));
    }
    // The quota with the bad name is the third entry under quotas:, on its own line.
    const badName = annotations.find((a) => a.includes('::quotas[2].name:'))!;
    expect(badName).toContain(
      `line=${lines.findIndex((l) => l.includes('Bad_Name')) + 1},col=${lines.find((l) => l.includes('Bad_Name'))!.indexOf('name:') + 1},`,
    );
  }, 60_000);

  it('reports without failing with FAIL_ON_PROBLEMS=false, and annotates only in GitHub Actions', async () => {
    // Outside GitHub Actions, a token that may not read /user names its login in COMMENT_AUTHOR.
    const result = await runScript(path.join(repo, 'capacity'), env({ FAIL_ON_PROBLEMS: 'false', OUT: 'review-2', COMMENT_AUTHOR: 'github-actions[bot]' }));
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('updated comment 4242');
    expect(result.stdout).not.toContain('::error');
  }, 60_000);
});

// The artifact's drawn charts are extras: without Chromium the review still runs (auto) unless they were asked for.
describe('examples/ci/plan-comment.sh when the charts cannot be drawn', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'metalslice-pr-charts-'));
  beforeAll(() => {
    fs.cpSync(path.join(REPO_ROOT, 'examples', 'inventory'), path.join(dir, 'inventory'), { recursive: true });
    fs.copyFileSync(path.join(REPO_ROOT, 'examples', 'metalslice.yaml'), path.join(dir, 'metalslice.yaml'));
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  const env = (mode: string, out: string) => ({
    METALSLICE: `${process.execPath} ${path.join(REPO_ROOT, 'bin', 'metalslice')}`,
    METALSLICE_CONFIG: 'metalslice.yaml',
    OUT: out,
    RENDER_CHARTS: mode,
    CHROMIUM: path.join(dir, 'no-such-chromium'),
  });

  it('says why and goes on by default (auto), fails with 70 when RENDER_CHARTS=true, and is silent when false', async () => {
    const auto = await runScript(dir, env('auto', 'auto'));
    expect(auto.code).toBe(0);
    expect(auto.stderr).toMatch(/plan-comment: charts not drawn: report-html: Chromium did not render the page/);
    expect(fs.readdirSync(path.join(dir, 'auto')).sort()).toEqual(['comment.md', 'plan.json', 'plan.md']);
    const strict = await runScript(dir, env('true', 'strict'));
    expect(strict.code).toBe(70);
    expect(strict.stderr).toContain('charts not drawn');
    const off = await runScript(dir, env('false', 'off'));
    expect(off.code).toBe(0);
    expect(off.stderr).not.toContain('charts');
  }, 60_000);
});

// Hostile input to the PR script: a comment by someone else that carries the marker, more comments than one
// page holds, a BASE_REF that is a git option, and a metalslice (the code under review) that looks for the token.
describe('examples/ci/plan-comment.sh on hostile input', () => {
  const MARKER = '<!-- metalslice-plan-review -->';
  const TOKEN = 'ghp_FAKEtoken-plan-comment-0123456789';
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'metalslice-pr-hostile-'));
  beforeAll(() => {
    fs.cpSync(path.join(REPO_ROOT, 'examples', 'inventory'), path.join(dir, 'inventory'), { recursive: true });
    fs.copyFileSync(path.join(REPO_ROOT, 'examples', 'metalslice.yaml'), path.join(dir, 'metalslice.yaml'));
    git(dir, 'init', '--quiet', '--initial-branch', 'main');
    git(dir, 'add', '.');
    git(dir, 'commit', '--quiet', '-m', 'base');
    // origin is the repository itself, over the local transport: git runs an upload-pack command to fetch from it.
    git(dir, 'remote', 'add', 'origin', dir);
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  const withServer = async <T>(server: http.Server, f: (api: string) => Promise<T>): Promise<T> => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      return await f(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    } finally {
      server.close();
    }
  };
  const env = (api: string, extra: Record<string, string> = {}) => ({
    METALSLICE: `${process.execPath} ${path.join(REPO_ROOT, 'bin', 'metalslice')}`,
    METALSLICE_CONFIG: 'metalslice.yaml',
    OUT: 'review',
    GITHUB_TOKEN: TOKEN,
    GITHUB_REPOSITORY: 'acme/fleet',
    PR_NUMBER: '11',
    GITHUB_API_URL: api,
    ...extra,
  });
  const others = (n: number, from = 1): Comment[] =>
    Array.from({ length: n }, (_, i) => ({ id: from + i, body: `looks good ${i}`, user: { login: `reviewer-${i % 7}` } }));

  it("never overwrites another user's comment that carries the marker: it posts its own", async () => {
    const planted: Comment = { id: 77, body: `${MARKER}\nplanted by someone else`, user: { login: 'mallory' } };
    const comments = [...others(3), planted];
    const calls: Call[] = [];
    const result = await withServer(fakeGitHub(calls, { login: 'metalslice-bot', comments }), (api) => runScript(dir, env(api)));
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('posted a new comment');
    expect(calls.filter((c) => c.method === 'PATCH')).toEqual([]);
    expect(planted.body).toBe(`${MARKER}\nplanted by someone else`);
    expect(comments.filter((c) => c.user.login === 'metalslice-bot')).toHaveLength(1);
  }, 60_000);

  it('finds its own comment on the second page of comments and updates it', async () => {
    const ours: Comment = { id: 9001, body: `${MARKER}\nthe plan of the last push`, user: { login: 'metalslice-bot' } };
    const comments = [...others(100), { id: 555, body: `${MARKER}\nquoted`, user: { login: 'mallory' } }, ...others(20, 200), ours, ...others(30, 300)];
    const calls: Call[] = [];
    const result = await withServer(fakeGitHub(calls, { login: 'metalslice-bot', comments }), (api) => runScript(dir, env(api)));
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('updated comment 9001');
    expect(calls.filter((c) => c.method !== 'GET').map((c) => `${c.method} ${c.url}`)).toEqual(['PATCH /repos/acme/fleet/issues/comments/9001']);
    expect(ours.body).toMatch(/^<!-- metalslice-plan-review -->\n# metalslice capacity plan/);
    expect(comments.find((c) => c.id === 555)?.body).toBe(`${MARKER}\nquoted`);
  }, 60_000);

  it("with GitHub Actions' GITHUB_TOKEN (/user refused), updates only github-actions[bot]'s comment", async () => {
    const ours: Comment = { id: 31, body: `${MARKER}\nold`, user: { login: 'github-actions[bot]' } };
    const comments = [{ id: 30, body: `${MARKER}\nplanted`, user: { login: 'mallory' } }, ours];
    const calls: Call[] = [];
    const result = await withServer(fakeGitHub(calls, { comments }), (api) => runScript(dir, env(api, { GITHUB_ACTIONS: 'true', OUT: 'review-actions' })));
    expect(result.stderr).toContain('updated comment 31');
    expect(comments[0].body).toBe(`${MARKER}\nplanted`);
  }, 60_000);

  it('a BASE_REF that is a git option runs nothing: exit 2 before any fetch, nothing posted', async () => {
    const pwned = path.join(dir, 'pwned');
    const calls: Call[] = [];
    const result = await withServer(fakeGitHub(calls, { login: 'metalslice-bot' }), (api) =>
      runScript(dir, env(api, { BASE_REF: `--upload-pack=touch ${pwned};git-upload-pack`, OUT: 'review-ref' })),
    );
    expect(fs.existsSync(pwned)).toBe(false);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/BASE_REF \(\d+ characters\) is not a branch name git accepts/);
    expect(calls).toEqual([]);
  }, 60_000);

  it('never hands the token to the code under review (metalslice, the app), in any mode', async () => {
    const seen = path.join(dir, 'seen-env');
    const spy = path.join(dir, 'spy.sh');
    fs.writeFileSync(spy, `#!/usr/bin/env bash\nenv >>"${seen}"\nexec "${process.execPath}" "${path.join(REPO_ROOT, 'bin', 'metalslice')}" "$@"\n`, {
      mode: 0o755,
    });
    const calls: Call[] = [];
    for (const mode of ['all', 'plan']) {
      const result = await withServer(fakeGitHub(calls, { login: 'metalslice-bot' }), (api) =>
        runScriptIn(mode, dir, env(api, { METALSLICE: spy, GH_TOKEN: TOKEN, OUT: `review-${mode}` })),
      );
      expect(result.code).toBe(0);
    }
    const text = fs.readFileSync(seen, 'utf8');
    expect(text).toContain('METALSLICE_CONFIG=');
    expect(text).not.toContain(TOKEN);
    // `plan` posts nothing; `post` runs no metalslice and finds what `plan` wrote.
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(1);
    fs.rmSync(seen);
    const post = await withServer(fakeGitHub(calls, { login: 'metalslice-bot' }), (api) =>
      runScriptIn('post', dir, env(api, { METALSLICE: spy, OUT: 'review-plan' })),
    );
    expect(post.code).toBe(0);
    expect(post.stderr).toContain('posted a new comment');
    expect(fs.existsSync(seen)).toBe(false);
  }, 90_000);
});

interface Step {
  id?: string;
  name?: string;
  uses?: string;
  run?: string;
  if?: string;
  shell?: string;
  env?: Record<string, string>;
  with?: Record<string, string>;
}

describe('action.yml: the composite GitHub Action', () => {
  const action = parse(fs.readFileSync(path.join(REPO_ROOT, 'action.yml'), 'utf8')) as {
    inputs: Record<string, { default?: string }>;
    runs: { using: string; steps: Step[] };
  };

  it('runs the tested script, on Node 22, with actions that run on Node 24', () => {
    expect(action.runs.using).toBe('composite');
    expect(action.inputs['node-version'].default).toBe('22');
    const uses = action.runs.steps.flatMap((s) => (s.uses ? [s.uses] : []));
    for (const u of uses) expect(Number(/^actions\/[a-z-]+@v(\d+)$/.exec(u)?.[1])).toBeGreaterThanOrEqual(6);
    const post = action.runs.steps.find((s) => s.run?.includes('examples/ci/plan-comment.sh" post'));
    expect(post?.env?.FAIL_ON_PROBLEMS).toBe('${{ inputs.fail-on-problems }}');
    // The reports are kept even when the plan fails the step.
    expect(action.runs.steps.find((s) => s.uses?.startsWith('actions/upload-artifact@'))?.if).toBe('always()');
  });

  it('installs the chart renderer at the versions this repo tests, where the review step looks for it', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> };
    const install = action.runs.steps.find((s) => s.run?.includes('mermaid@'));
    expect(install?.if).toBe("inputs.render-charts != 'false'");
    const pinned = Object.fromEntries([...(install?.run ?? '').matchAll(/ (mermaid|marked)@(\S+)/g)].map((m) => [m[1], m[2]]));
    expect(pinned).toEqual({ mermaid: pkg.devDependencies.mermaid, marked: pkg.devDependencies.marked });
    const prefix = /--prefix "\$RUNNER_TEMP\/([^"]+)"/.exec(install?.run ?? '')?.[1];
    const env = action.runs.steps.find((s) => s.run?.includes('examples/ci/plan-comment.sh'))?.env ?? {};
    expect(env.RENDER_CHARTS).toBe('${{ inputs.render-charts }}');
    expect(env.MERMAID_JS).toBe(`\${{ runner.temp }}/${prefix}/node_modules/mermaid/dist/mermaid.min.js`);
    expect(env.MARKED_JS).toBe(`\${{ runner.temp }}/${prefix}/node_modules/marked/lib/marked.esm.js`);
    // The files those paths name exist in the packages as installed here.
    expect(fs.existsSync(path.join(REPO_ROOT, 'node_modules', 'mermaid', 'dist', 'mermaid.min.js'))).toBe(true);
    expect(fs.existsSync(path.join(REPO_ROOT, 'node_modules', 'marked', 'lib', 'marked.esm.js'))).toBe(true);
    expect(env.REPORT_HTML).toBe('${{ github.action_path }}/scripts/report-html.mjs');
    expect(fs.existsSync(path.join(REPO_ROOT, 'scripts', 'report-html.mjs'))).toBe(true);
  });

  // A step runs the pull request's code when it installs its dependencies, synthesizes its app or runs the
  // metalslice it installed: every step that runs a command in the working directory, except the one that posts.
  it('gives the token to one step only, which runs none of the pull request’s code, after all of it has run', () => {
    const steps = action.runs.steps;
    const token = /inputs\.github-token|github\.token|secrets\./;
    const holders = steps.filter((s) => token.test(JSON.stringify({ env: s.env ?? {}, with: s.with ?? {} })));
    expect(holders.map((s) => s.name)).toEqual([expect.stringMatching(/^Post the comment/)]);
    const post = holders[0];
    const index = steps.indexOf(post);
    // What the posting step runs: the action's own script in post mode, on a shell and PATH the workspace cannot
    // have changed, with the variables that make bash or node load other code cleared.
    expect(post.run).toBe('PATH=/usr/bin:/bin exec /bin/bash --noprofile --norc "$GITHUB_ACTION_PATH/examples/ci/plan-comment.sh" post');
    expect(post.shell).toBe('/bin/bash --noprofile --norc -eo pipefail {0}');
    expect(post.run).not.toMatch(/npx|npm |cdktf|metalslice |node_modules|GITHUB_WORKSPACE|eval|INSTALL|\.\//);
    for (const cleared of ['BASH_ENV', 'ENV', 'NODE_OPTIONS', 'NODE_PATH', 'LD_PRELOAD', 'LD_LIBRARY_PATH']) expect(post.env?.[cleared]).toBe('');
    expect(post.env?.METALSLICE).toBeUndefined();
    // The node it uses was found by a step before any step that runs the pull request's code.
    expect(post.env?.NODE).toBe('${{ steps.node.outputs.path }}');
    const nodeStep = steps.findIndex((s) => s.id === 'node');
    const prCode = steps.filter((s, i) => i !== index && s.run !== undefined && s.id !== 'node' && !s.name?.startsWith('Check that the token'));
    expect(prCode.map((s) => s.name)).toEqual([expect.stringMatching(/^Install/), expect.stringMatching(/^Chart renderer/), expect.stringMatching(/^Plan/)]);
    for (const s of prCode) {
      expect(steps.indexOf(s)).toBeGreaterThan(nodeStep);
      expect(steps.indexOf(s)).toBeLessThan(index);
      // Blanked, so a token a workflow sets for the whole job does not reach them either.
      expect([s.env?.GITHUB_TOKEN, s.env?.GH_TOKEN]).toEqual(['', '']);
    }
    expect(steps.find((s) => s.name?.startsWith('Plan'))?.run).toBe('bash "$GITHUB_ACTION_PATH/examples/ci/plan-comment.sh" plan');
  });

  it('the example workflow checks out without leaving the token in .git/config', () => {
    const workflow = parse(fs.readFileSync(path.join(REPO_ROOT, 'examples', 'ci', 'github-actions.yml'), 'utf8')) as {
      jobs: Record<string, { steps: Step[] }>;
    };
    const checkout = Object.values(workflow.jobs)
      .flatMap((j) => j.steps)
      .find((s) => s.uses?.startsWith('actions/checkout@'));
    expect(checkout?.with?.['persist-credentials']).toBe(false);
  });
});
