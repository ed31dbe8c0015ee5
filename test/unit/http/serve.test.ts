import { expect } from 'chai';
import express from 'express';
import { setTimeout as sleep } from 'node:timers/promises';
import { connect } from 'node:net';
import type { RequestListener } from 'node:http';
import { appMessages } from '../../../packages/http/app-messages.ts';
import { listen } from '../../../packages/http/serve.ts';

describe('http kit: listen and graceful close', () => {
  function slowApp(delayMs: number) {
    const app = express();
    app.get('/slow', async (_req, res) => {
      await sleep(delayMs);
      res.json({ done: true });
    });
    app.get('/fast', (_req, res) => {
      res.json({ done: true });
    });
    return app;
  }

  it('binds a free port when asked for port 0', async () => {
    const running = await listen(slowApp(0), 0, '127.0.0.1');
    expect(running.port).to.be.greaterThan(0);
    expect((await fetch(`http://127.0.0.1:${running.port}/fast`)).status).to.equal(200);
    await running.close(1000);
  });

  it("makes requests and responses with the app's prototypes once it adopts the app, which still answers them", async () => {
    const messages = appMessages();
    const app = express();
    app.get('/echo', (req, res) => {
      res.status(201).json({ query: req.query, sameApp: req.app === app });
    });
    let answering: RequestListener | null = null;
    const bornWith: { request: boolean; response: boolean }[] = [];
    const running = await listen(
      (request, response) => {
        bornWith.push({
          request: Object.getPrototypeOf(request) === app.request,
          response: Object.getPrototypeOf(response) === app.response,
        });
        if (answering) answering(request, response);
        else response.end('starting');
      },
      0,
      '127.0.0.1',
      { messages },
    );
    const url = `http://127.0.0.1:${running.port}/echo?a=1`;
    expect(await (await fetch(url)).text()).to.equal('starting');
    messages.adopt(app);
    answering = app;
    const response = await fetch(url);
    expect(response.status).to.equal(201);
    expect(await response.json()).to.deep.equal({ query: { a: '1' }, sameApp: true });
    expect(bornWith).to.deep.equal([
      { request: false, response: false },
      { request: true, response: true },
    ]);
    await running.close(1000);
  });

  it('reports a server error after it listens (a connection it could not accept) and keeps serving', async () => {
    const reported: Error[] = [];
    const running = await listen(slowApp(0), 0, '127.0.0.1', { onError: (error) => reported.push(error) });
    // What net.Server emits when accept() fails; it cannot be caused here without exhausting the host's descriptors.
    running.server.emit('error', Object.assign(new Error('accept EMFILE'), { code: 'EMFILE' }));
    expect(reported.map((error) => error.message)).to.deep.equal(['accept EMFILE']);
    expect((await fetch(`http://127.0.0.1:${running.port}/fast`)).status).to.equal(200);
    await running.close(1000);
  });

  it('lets an in-flight request finish, refuses new connections, and resolves promptly', async () => {
    const running = await listen(slowApp(300), 0, '127.0.0.1');
    const url = `http://127.0.0.1:${running.port}`;
    // A keep-alive connection left idle must not hold the close open.
    await fetch(`${url}/fast`);
    const inFlight = fetch(`${url}/slow`);
    await sleep(50);
    const started = Date.now();
    const closed = running.close(5000);
    const response = await inFlight;
    expect(response.status).to.equal(200);
    expect(await response.json()).to.deep.equal({ done: true });
    await closed;
    expect(Date.now() - started).to.be.lessThan(2000);
    const refused = await fetch(`${url}/fast`).catch((error: unknown) => error);
    expect(refused).to.be.instanceOf(Error);
  });

  it('cuts requests still running after the timeout', async () => {
    const running = await listen(slowApp(10_000), 0, '127.0.0.1');
    const inFlight = fetch(`http://127.0.0.1:${running.port}/slow`).catch((error: unknown) => error);
    await sleep(50);
    const started = Date.now();
    await running.close(200);
    expect(Date.now() - started).to.be.within(150, 1500);
    expect(await inFlight).to.be.instanceOf(Error);
  });

  it('rejects when the port is taken', async () => {
    const first = await listen(slowApp(0), 0, '127.0.0.1');
    const error = await listen(slowApp(0), first.port, '127.0.0.1').catch((caught: unknown) => caught);
    expect(error).to.be.instanceOf(Error);
    expect((error as NodeJS.ErrnoException).code).to.equal('EADDRINUSE');
    await first.close(1000);
  });

  /** Opens a raw connection, writes `text`, and resolves with what the server sent until it closed the socket. */
  function stallingClient(port: number, text: string): Promise<{ answer: string; closedAfterMs: number }> {
    return new Promise((resolve, reject) => {
      const started = Date.now();
      const socket = connect(port, '127.0.0.1', () => socket.write(text));
      let answer = '';
      socket.on('data', (chunk: Buffer) => (answer += chunk.toString()));
      socket.on('close', () => resolve({ answer, closedAfterMs: Date.now() - started }));
      socket.on('error', reject);
    });
  }

  it('cuts a client that sends its headers too slowly, and one that stalls in the body', async () => {
    const running = await listen(slowApp(0), 0, '127.0.0.1', {
      timeoutsMs: { headers: 300, request: 600, keepAlive: 1000 },
    });
    try {
      const [slowHeaders, slowBody] = await Promise.all([
        stallingClient(running.port, 'GET /fast HTTP/1.1\r\nHost: x\r\n'),
        stallingClient(running.port, 'POST /fast HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\nabc'),
      ]);
      expect(slowHeaders.answer).to.match(/^HTTP\/1\.1 408/);
      expect(slowBody.answer).to.match(/^HTTP\/1\.1 408/);
      // Bounded by the timeouts plus the check interval, far below Node's 300 s default.
      expect(slowHeaders.closedAfterMs).to.be.below(5000);
      expect(slowBody.closedAfterMs).to.be.below(5000);
    } finally {
      await running.close(1000);
    }
  });
});
