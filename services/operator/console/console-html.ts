import { html, joinHtml, type SafeHtml } from '../../../packages/http/html.ts';
import type { RecordedEvent } from '../../../packages/eventstore/event-store.ts';
import type { WebhookCircuitDoc } from '../../worker/webhook-circuit-board.ts';
import type { QueueCounts } from '../../../packages/jobs/job-queue.ts';
import type { WebhookDeliveryDoc } from '../../../projections/webhook-deliveries-projection.ts';
import { readStoreBuildText } from '../../projector/read-store-build-progress.ts';
import { byteSize } from '../../backup/byte-size.ts';
import type { LatestBackupDoc } from '../../backup/latest-backup.ts';
import type { BackupStatus, ProjectionStatus, ReadStoreBuildStatus, TamperEvidence } from './operator-state.ts';

/** A page of the console: no external resources, one stylesheet and one small script of its own. */
export function page(title: string, body: SafeHtml, options: { signedIn: boolean } = { signedIn: true }): string {
  const signOut = options.signedIn
    ? html`<form method="post" action="/console/logout" class="signout"><button type="submit">Sign out</button></form>`
    : null;
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · Payments operator console</title>
<link rel="stylesheet" href="/console/console.css">
<script src="/console/console.js" defer></script>
</head>
<body>
<header><p class="brand"><a href="/console">Payments operator console</a></p>${signOut}</header>
<main id="main">
<h1>${title}</h1>
${body}
</main>
</body>
</html>`.markup;
}

export function loginPage(error: string | null): string {
  return page(
    'Sign in',
    html`${error && html`<p role="alert" class="error">${error}</p>`}
<form method="post" action="/console/login" class="login">
  <label for="token">Operator token</label>
  <input id="token" name="token" type="password" autocomplete="current-password" required>
  <button type="submit">Sign in</button>
</form>`,
    { signedIn: false },
  );
}

function progressText(projection: ProjectionStatus): string {
  const { rebuild } = projection;
  if (!rebuild) return '—';
  if (rebuild.requested) return 'requested';
  if (rebuild.finished) return 'rebuilt';
  return `${rebuild.position} / ${rebuild.headPosition}`;
}

/**
 * A full build of the read store under way: nothing in the projections' table moves until it
 * switches (their checkpoints are the serving file's), so it has a section of its own.
 */
export function readStoreBuildSection(build: ReadStoreBuildStatus): SafeHtml {
  const who =
    build.startedBy === 'cli'
      ? 'by projections rebuild --all; the current read store serves until the switch'
      : 'by the service at its start, over an empty read store; reads answer 503 until the switch';
  return html`<section aria-labelledby="read-store-build-title" id="read-store-build">
<h2 id="read-store-build-title">Read store build</h2>
<p>Every read model is being built from the log into <code>${build.file}</code> ${who}. Started <time datetime="${build.startedAt}">${build.startedAt}</time>.</p>
<p><progress max="${Math.max(build.head, 1)}" value="${build.position}" aria-label="Read store build"></progress> <span data-field="read-store-build">${readStoreBuildText(build)}</span></p>
</section>`;
}

/**
 * A table that scrolls sideways in a box of its own when it is wider than the page (a phone): a
 * keyboard-focusable region named by its section's heading. A column named `''` is an action
 * column, named for screen readers only; `liveRows` has screen readers announce the rows' changes.
 */
function scrollingTable(
  labelledBy: string,
  columns: readonly string[],
  rows: readonly SafeHtml[],
  liveRows = false,
): SafeHtml {
  const header = columns.map((name) =>
    name === ''
      ? html`<th scope="col"><span class="visually-hidden">Action</span></th>`
      : html`<th scope="col">${name}</th>`,
  );
  return html`<div class="table-scroll" role="region" aria-labelledby="${labelledBy}" tabindex="0"><table>
<thead><tr>${joinHtml(header, '')}</tr></thead>
<tbody${liveRows ? html` aria-live="polite"` : null}>
${joinHtml(rows, '\n')}
</tbody>
</table></div>`;
}

/** `building`: a full read store build runs, and rebuilding one projection waits for its switch. */
export function projectionsSection(projections: ProjectionStatus[], { building = false } = {}): SafeHtml {
  const rows = projections.map(
    (projection) => html`<tr data-projection="${projection.name}">
  <th scope="row">${projection.name}</th>
  <td>${projection.generation}</td>
  <td>${projection.checkpoint}</td>
  <td data-field="lag">${projection.lag}</td>
  <td data-field="rebuild"><progress max="${Math.max(projection.rebuild?.headPosition ?? 1, 1)}" value="${projection.rebuild?.finished ? Math.max(projection.rebuild.headPosition, 1) : (projection.rebuild?.position ?? 0)}" aria-label="Rebuild of ${projection.name}"></progress> <span>${progressText(projection)}</span></td>
  <td><form method="post" action="/console/projections/${encodeURIComponent(projection.name)}/rebuild"><button type="submit"${building ? html` disabled title="A read store build is under way"` : null}>Rebuild <span class="visually-hidden">${projection.name}</span></button></form></td>
</tr>`,
  );
  return html`<section aria-labelledby="projections-title" id="projections">
<h2 id="projections-title">Projections</h2>
<p>Lag is in log positions behind the head (${projections[0]?.head ?? 0}). A rebuild builds a fresh generation beside the live one and switches when caught up; progress updates live.</p>
${scrollingTable('projections-title', ['Projection', 'Generation', 'Checkpoint', 'Lag', 'Rebuild', ''], rows, true)}
</section>`;
}

export function queuesSection(queues: { queue: string; counts: QueueCounts }[], bullBoard: boolean): SafeHtml {
  const rows = queues.map(
    ({ queue, counts }) =>
      html`<tr><th scope="row">${queue}</th><td>${counts.waiting}</td><td>${counts.delayed}</td><td>${counts.active}</td><td>${counts.completed}</td><td>${counts.failed}</td></tr>`,
  );
  const board = bullBoard
    ? html`<p><a href="/console/queues/">Open the BullMQ board</a> for jobs, their data and retries.</p>`
    : html`<p>Jobs run in this process (embedded profile, no <code>REDIS_URL</code>): these counts are the whole view.</p>`;
  return html`<section aria-labelledby="queues-title" id="queues">
<h2 id="queues-title">Job queues</h2>
${board}
${scrollingTable('queues-title', ['Queue', 'Waiting', 'Delayed', 'Active', 'Completed', 'Failed'], rows)}
</section>`;
}

export function openCircuitsSection(circuits: WebhookCircuitDoc[]): SafeHtml {
  const rows = circuits.map(
    (circuit) => html`<tr data-endpoint="${circuit.id}">
  <th scope="row"><code>${circuit.id}</code></th>
  <td><code>${circuit.accountId}</code> (${circuit.mode})</td>
  <td>${new Date(circuit.created * 1000).toISOString()}</td>
  <td>${circuit.timeouts}</td>
  <td>${new Date(circuit.lastTimeoutAt).toISOString()}</td>
</tr>`,
  );
  return html`<section aria-labelledby="circuits-title" id="circuits">
<h2 id="circuits-title">Webhook endpoints with an open circuit</h2>
<p>Their attempts timed out several times in a row (no answer within WEBHOOK_TIMEOUT_MS): each gets one attempt at a time, further apart after each timeout, until one ends in time; the rest of its deliveries wait.</p>
${
  circuits.length === 0
    ? html`<p>No open circuits.</p>`
    : scrollingTable('circuits-title', ['Endpoint', 'Account', 'Open since', 'Timeouts in a row', 'Last timeout'], rows)
}
</section>`;
}

export function deliveriesSection(deliveries: WebhookDeliveryDoc[], notice: string | null): SafeHtml {
  const rows = deliveries.map((delivery) => {
    const last = delivery.attempts.at(-1);
    const outcome = last ? (last.statusCode === null ? (last.error ?? 'no answer') : `HTTP ${last.statusCode}`) : '—';
    return html`<tr data-delivery="${delivery.id}">
  <th scope="row"><code>${delivery.id}</code></th>
  <td><code>${delivery._accountId}</code> (${delivery._mode})</td>
  <td><code>${delivery.endpointId}</code></td>
  <td>${delivery.eventType}</td>
  <td>${delivery.attempts.length}</td>
  <td>${outcome}</td>
  <td><form method="post" action="/console/deliveries/${encodeURIComponent(delivery.id)}/resend"><button type="submit">Resend <span class="visually-hidden">${delivery.id}</span></button></form></td>
</tr>`;
  });
  return html`<section aria-labelledby="deliveries-title" id="deliveries">
<h2 id="deliveries-title">Failed webhook deliveries</h2>
${notice && html`<p role="status" class="notice">${notice}</p>`}
${
  deliveries.length === 0
    ? html`<p>No failed deliveries.</p>`
    : scrollingTable(
        'deliveries-title',
        ['Delivery', 'Account', 'Endpoint', 'Event type', 'Attempts', 'Last answer', ''],
        rows,
      )
}
</section>`;
}

/** An interval as an operator reads it: `1 hour`, `15 minutes`, `300 ms`. */
function interval(ms: number): string {
  const units: [number, string][] = [
    [3_600_000, 'hour'],
    [60_000, 'minute'],
    [1_000, 'second'],
  ];
  for (const [size, unit] of units) if (ms % size === 0) return `${ms / size} ${unit}${ms === size ? '' : 's'}`;
  return `${ms} ms`;
}

/**
 * The log's tamper evidence: the last checkpoint over the whole log, with its digest to copy
 * somewhere the service cannot write, and how much of the log it does not cover yet.
 */
export function tamperEvidenceSection(evidence: TamperEvidence): SafeHtml {
  const { latest, checkpoints, head, intervalMs } = evidence;
  const schedule =
    intervalMs > 0
      ? html`The projector records one every ${interval(intervalMs)} when events were appended since (<code>AUDIT_CHECKPOINT_INTERVAL_MS</code>); <code>npm run cli -- audit checkpoint</code> records one at once.`
      : html`The projector records none by itself (<code>AUDIT_CHECKPOINT_INTERVAL_MS=0</code>): <code>npm run cli -- audit checkpoint</code> records one.`;
  const last = latest
    ? html`<dl>
<dt>Last checkpoint</dt><dd><code>${latest.id}</code>, recorded ${new Date(latest.created * 1000).toISOString()}, of ${checkpoints} in all</dd>
<dt>Covers</dt><dd>the log up to position ${latest.position} (${latest.events} events); ${Math.max(head - latest.position, 0)} appended since, covered by their streams' hash chains until the next checkpoint</dd>
<dt>Digest</dt><dd><code class="hash" id="checkpoint-digest">${latest.digest}</code></dd>
</dl>`
    : html`<p>No checkpoint recorded yet: the log's ${head} events are covered by their streams' hash chains only.</p>`;
  return html`<section aria-labelledby="audit-title" id="audit">
<h2 id="audit-title">Tamper evidence</h2>
${last}
<p>${schedule} Keep each digest somewhere this service cannot write (a ticket, a signed e-mail) and compare it later with <code>npm run cli -- audit verify</code>, which recomputes every stream's chain and every checkpoint.</p>
</section>`;
}

function backupLogText(log: LatestBackupDoc['log']): SafeHtml {
  if (log === 'intact') return html`intact: its hash chains and checkpoints verified when it was taken`;
  if (log === 'broken')
    return html`<strong>did not verify</strong> when it was taken: the original's log is broken too; run <code>npm run cli -- audit verify</code>`;
  return html`not verified (taken with <code>--no-verify</code>)`;
}

/**
 * The last backup `backup` took, and how much of the log is in none yet: what a restore from it
 * would lose today.
 */
export function backupsSection({ latest, head, embedded }: BackupStatus): SafeHtml {
  const body = !embedded
    ? html`<p>The log, the state and the files are in EventStoreDB and MongoDB: back them up with their own tools, the state before the log. <code>npm run cli -- backup</code> copies the embedded profile's files only.</p>`
    : latest
      ? html`<dl>
<dt>Last backup</dt><dd>taken ${latest.takenAt} into <code>${latest.target}</code> (${byteSize(latest.bytes)})</dd>
<dt>Covers</dt><dd>the log up to position ${latest.headPosition} (${latest.events} events); <span id="not-backed-up">${Math.max(head - latest.headPosition, 0)}</span> appended since, in no backup yet</dd>
<dt>Its log</dt><dd id="backup-log">${backupLogText(latest.log)}</dd>
</dl>
<p><code>npm run cli -- backup &lt;directory&gt;</code> takes the next one while the service runs.</p>`
      : html`<p>No backup taken with <code>npm run cli -- backup &lt;directory&gt;</code> yet: the log's <span id="not-backed-up">${head}</span> events are in no backup this service knows of. It copies the log, the state, the uploaded files and the keys while the service runs.</p>`;
  return html`<section aria-labelledby="backups-title" id="backups">
<h2 id="backups-title">Backups</h2>
${body}
</section>`;
}

export function streamSearchForm(objectId = '', asOf = ''): SafeHtml {
  return html`<form method="get" action="/console/streams" class="search" role="search">
  <label for="objectId">Object id</label>
  <input id="objectId" name="objectId" value="${objectId}" placeholder="cust_…, char_…, card_…" required>
  <label for="asOf">As of (Unix time, optional)</label>
  <input id="asOf" name="asOf" value="${asOf}" inputmode="numeric" pattern="[0-9]*">
  <button type="submit">Show stream</button>
</form>`;
}

export function streamBrowserSection(): SafeHtml {
  return html`<section aria-labelledby="streams-title" id="streams">
<h2 id="streams-title">Stream browser</h2>
${streamSearchForm()}
</section>`;
}

export function streamPage(
  objectId: string,
  asOfText: string,
  found: { events: RecordedEvent[]; object: object | null; asOf: number | null } | null,
  error: string | null,
): string {
  if (!found)
    return page(
      `Stream of ${objectId}`,
      html`${streamSearchForm(objectId, asOfText)}<p role="alert" class="error">${error ?? `No events for ${objectId}.`}</p>`,
    );
  const rows = found.events.map(
    (event) => html`<tr>
  <td>${event.revision}</td>
  <td><time datetime="${event.metadata.occurredAt}">${event.metadata.occurredAt}</time></td>
  <td>${event.type}</td>
  <td><code>${event.metadata.actor ?? '—'}</code></td>
  <td><code>${event.metadata.requestId ?? '—'}</code></td>
  <td><details><summary>data</summary><pre>${JSON.stringify(event.data, null, 2)}</pre></details></td>
  <td><code class="hash">${event.hash ?? 'not sealed'}</code></td>
</tr>`,
  );
  const state =
    found.asOf === null
      ? null
      : html`<section aria-labelledby="as-of-title"><h2 id="as-of-title">As of ${new Date(found.asOf * 1000).toISOString()}</h2>
${found.object ? html`<pre id="as-of-object">${JSON.stringify(found.object, null, 2)}</pre>` : html`<p>The object did not exist yet.</p>`}</section>`;
  return page(
    `Stream of ${objectId}`,
    html`${streamSearchForm(objectId, asOfText)}
${state}
<section aria-labelledby="history-title"><h2 id="history-title">History (${found.events.length} ${found.events.length === 1 ? 'event' : 'events'})</h2>
${scrollingTable('history-title', ['#', 'Occurred', 'Type', 'Actor', 'Request', 'Data', 'Hash'], rows)}</section>`,
  );
}

export const consoleCss = `
:root { color-scheme: light dark; --fg: #1b1f24; --bg: #ffffff; --muted: #57606a; --line: #d0d7de; --accent: #0b57d0; }
@media (prefers-color-scheme: dark) { :root { --fg: #e6edf3; --bg: #0d1117; --muted: #9da7b3; --line: #30363d; --accent: #6ea8fe; } }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--fg); background: var(--bg); }
header { display: flex; justify-content: space-between; align-items: center; padding: .6rem 1.2rem; border-bottom: 1px solid var(--line); }
.brand { margin: 0; font-weight: 600; } .brand a { color: inherit; text-decoration: none; }
main { padding: 1rem 1.2rem 3rem; max-width: 84rem; }
h1 { font-size: 1.4rem; margin: .2rem 0 1rem; overflow-wrap: anywhere; } h2 { font-size: 1.1rem; margin: 1.6rem 0 .5rem; }
table { border-collapse: collapse; width: 100%; margin: .4rem 0; }
.table-scroll { overflow-x: auto; position: relative; }
.table-scroll tbody th[scope="row"] { position: sticky; left: 0; background: var(--bg); }
.table-scroll td code { overflow-wrap: anywhere; display: inline-block; min-width: 12ch; }
th, td { text-align: left; padding: .3rem .6rem; border-bottom: 1px solid var(--line); vertical-align: top; }
thead th { color: var(--muted); font-weight: 600; }
button { font: inherit; padding: .25rem .8rem; border: 1px solid var(--accent); color: var(--accent); background: transparent; border-radius: 4px; cursor: pointer; }
button:hover:enabled, button:focus-visible:enabled { background: var(--accent); color: var(--bg); }
button:disabled { border-color: var(--line); color: var(--muted); cursor: not-allowed; }
:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
input { font: inherit; padding: .25rem .4rem; border: 1px solid var(--line); border-radius: 4px; background: var(--bg); color: var(--fg); }
form.login, form.search { display: flex; gap: .5rem; align-items: center; flex-wrap: wrap; }
form { margin: 0; } pre { overflow-x: auto; max-width: 60rem; } code.hash { font-size: .75rem; word-break: break-all; display: inline-block; min-width: 10ch; }
.error { color: #d1242f; font-weight: 600; } .notice { color: var(--accent); font-weight: 600; }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
progress { width: 8rem; vertical-align: middle; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: .2rem 1rem; margin: .4rem 0; } dd { margin: 0; min-width: 0; overflow-wrap: anywhere; } dt { color: var(--muted); }
`;

/** Live rebuild progress: polls the projections' status while a rebuild is requested or running, and a read store build's while one runs. */
export const consoleJs = `
'use strict';
(function () {
  const build = document.querySelector('#read-store-build');
  if (!build) return;
  async function refresh() {
    try {
      const response = await fetch('/console/read-store-build.json', { credentials: 'same-origin' });
      if (!response.ok) return setTimeout(refresh, 2000);
      const status = await response.json();
      const text = build.querySelector('[data-field="read-store-build"]');
      if (!status) {
        text.textContent = 'Finished: the read store has switched (or the build stopped; see the log). Reload for the projections.';
        return;
      }
      const bar = build.querySelector('progress');
      bar.max = Math.max(status.head, 1);
      bar.value = status.position;
      text.textContent = status.text;
      setTimeout(refresh, 1000);
    } catch {
      setTimeout(refresh, 2000);
    }
  }
  refresh();
})();
(function () {
  const table = document.querySelector('#projections tbody');
  if (!table) return;
  async function refresh() {
    let busy = false;
    try {
      const response = await fetch('/console/projections.json', { credentials: 'same-origin' });
      if (!response.ok) return;
      for (const projection of await response.json()) {
        const row = table.querySelector('tr[data-projection="' + CSS.escape(projection.name) + '"]');
        if (!row) continue;
        row.querySelector('[data-field="lag"]').textContent = String(projection.lag);
        const cell = row.querySelector('[data-field="rebuild"]');
        const bar = cell.querySelector('progress');
        const text = cell.querySelector('span');
        const rebuild = projection.rebuild;
        if (!rebuild) { text.textContent = '\\u2014'; continue; }
        bar.max = Math.max(rebuild.headPosition, 1);
        bar.value = rebuild.finished ? bar.max : rebuild.position;
        text.textContent = rebuild.requested ? 'requested' : rebuild.finished ? 'rebuilt' : rebuild.position + ' / ' + rebuild.headPosition;
        if (!rebuild.finished) busy = true;
      }
    } finally {
      setTimeout(refresh, busy ? 300 : 2000);
    }
  }
  refresh();
})();
`;
