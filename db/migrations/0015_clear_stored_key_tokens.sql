-- CONTRACT §19: no secret lingers. Until now an API key created with an Idempotency-Key left its
-- whole answer, the token in clear, in idempotency_keys for 24 hours, and a replay handed the token
-- out again, even after the key was revoked. The pipeline now stores such answers with the token
-- null (lib/contracts/shown-once.ts); this rewrites the answers stored before it the same way, so
-- a replay of one answers `"token":null` like a new one. The row stays: deleting it would let a
-- retry create a second key.
--
-- Only answers of the three key-creating endpoints (POST .../api-keys; the fingerprint starts with
-- the method and path) hold a token. Tokens are base64url after their prefix, so the first
-- `"token":"…"` of the JSON text is the answer's own field: inside a string value the quotes would
-- be escaped. A rewrite keeps every other byte, so the replayed body is the first one but for it.
-- The rows' earlier versions stay in the table's files until PostgreSQL vacuums it (autovacuum,
-- or `VACUUM idempotency_keys`).
WITH rewritten AS (
  UPDATE idempotency_keys
  SET body = regexp_replace(body, '"token":"[^"\\]*"', '"token":null')
  WHERE state = 'done'
    AND fingerprint ~ '^POST /ext/svc/[^ ?]*/api-keys[? ]'
    AND body LIKE '%"token":"%'
  RETURNING key
)
INSERT INTO migration_reports (migration, message)
SELECT
  '0015_clear_stored_key_tokens',
  format(
    'Stored idempotent answers held the tokens of %s API keys in clear (CONTRACT §19): those tokens are now null there; run VACUUM idempotency_keys to drop the rows'' earlier versions at once.',
    (SELECT count(*) FROM rewritten)
  )
WHERE EXISTS (SELECT FROM rewritten);
