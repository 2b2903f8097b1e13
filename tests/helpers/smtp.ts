// A real SMTP server in-process: tests read the mail the app actually sent.
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail { to: string; raw: string; subject: string; links: string[] }

export async function startSmtpServer() {
  const messages: ReceivedMail[] = [];
  const waiters: Array<() => void> = [];
  let connections = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    // The client is this process: a reverse lookup of 127.0.0.1 could only wait on the resolver.
    disableReverseLookup: true,
    onConnect(_session, callback) { connections++; callback(); },
    onData(stream, session, callback) {
      let raw = '';
      stream.on('data', (chunk: Buffer) => { raw += chunk.toString('utf8'); });
      stream.on('end', () => {
        const unfolded = raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
        messages.push({
          to: session.envelope.rcptTo.map((r) => r.address).join(','),
          raw,
          subject: /^Subject: (.*)$/m.exec(raw)?.[1]?.trim() ?? '',
          links: [...new Set(unfolded.match(/https?:\/\/[^\s"<>]+/g) ?? [])],
        });
        waiters.splice(0).forEach((wake) => wake());
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    /** How many connections the app has opened to this server. */
    get connections() { return connections; },
    /** Resolves with the first mail to `to` whose subject matches, waiting up to 5 s. */
    async waitFor(to: string, subject: RegExp = /./): Promise<ReceivedMail> {
      const deadline = Date.now() + 15_000;
      for (;;) {
        const found = messages.find((m) => m.to.includes(to) && subject.test(m.subject));
        if (found) return found;
        if (Date.now() > deadline) throw new Error(`No mail to ${to} matching ${subject}`);
        await new Promise<void>((resolve) => { waiters.push(resolve); setTimeout(resolve, 200); });
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
