// Issue 26: the `status` of the 409 a request gets while another request with the same Idempotency-Key
// is still running (or was lost mid-way): the outbox retries it later. Any other 409 (a claim no longer
// editable, a decision taken first) is the server's refusal, kept in the outbox with its message.
export const IDEMPOTENCY_IN_PROGRESS = 'IDEMPOTENCY_IN_PROGRESS';
