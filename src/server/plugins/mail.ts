// Outgoing mail: SMTP when MAIL_URL is set, otherwise each message is written to DATA_DIR/mail
// and its links are logged, so a fresh install can still follow reset and verification links.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import nodemailer from 'nodemailer';

export interface MailMessage {
  to: string; subject: string; text: string; html: string;
  /** Issue 28: a calendar invitation, sent as the text/calendar alternative (and an invite.ics) calendars act on. */
  icalEvent?: { method: 'REQUEST' | 'CANCEL'; filename: string; content: string };
}
export interface Mailer { send(message: MailMessage): Promise<void>; close(): void }

export function createMailer(options: { mailUrl?: string; from: string; dataDir: string; log: FastifyBaseLogger; logLinks?: boolean }): Mailer {
  if (options.mailUrl) {
    // Pooled: connections are kept and reused, so that a run of mail (an import's invitations, one after
    // another) does not open one per message, each paying the connection, TLS and the server's greeting
    // (some servers pause before it to catch clients that talk too soon: smtp-server 100 ms). A closed
    // connection is replaced on the next message; `?pool=false` in MAIL_URL opens one per message again.
    const transport = nodemailer.createTransport({ url: options.mailUrl, pool: true });
    return {
      async send(message) { await transport.sendMail({ from: options.from, ...message }); },
      close() { transport.close(); },
    };
  }
  const folder = join(options.dataDir, 'mail');
  const streamTransport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    async send(message) {
      const info = await streamTransport.sendMail({ from: options.from, ...message });
      await mkdir(folder, { recursive: true });
      const file = join(folder, `${Date.now()}-${message.to.replace(/[^a-z0-9@.]/gi, '_')}.eml`);
      await writeFile(file, info.message as Buffer);
      // The links (a reset, a verification) let a fresh install go on without mail; a production log never carries them.
      const links = options.logLinks === false ? undefined : message.text.match(/https?:\/\/\S+/g) ?? [];
      options.log.info({ to: message.to, subject: message.subject, file, links }, `mail written to ${file}`);
    },
    close() { streamTransport.close(); },
  };
}

/** A plain, accessible transactional mail: one paragraph, one button, the link repeated as text. */
export function actionMail(appName: string, to: string, subject: string, intro: string, action: string, url: string, outro: string): MailMessage {
  const escape = (s: string) => s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);
  return {
    to,
    subject,
    text: `${intro}\n\n${action}: ${url}\n\n${outro}\n\n${appName}`,
    html: `<p>${escape(intro)}</p><p><a href="${escape(url)}" style="display:inline-block;padding:10px 18px;background:#4f46e5;color:#fff;border-radius:6px;text-decoration:none">${escape(action)}</a></p><p>${escape(outro)}</p><p style="color:#666;font-size:12px">If the button does not work, open this link: ${escape(url)}</p><p>${escape(appName)}</p>`,
  };
}
