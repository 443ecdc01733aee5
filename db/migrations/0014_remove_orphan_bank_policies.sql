-- CONTRACT §19: deleting a bank deletes its policy and the policy's history. Before that rule a
-- deleted bank left both behind: a bank created later under its id inherited them, and a member
-- who deleted their own bank kept a policy they could neither read nor delete. This removes what
-- deleted banks left behind and reports how many (a row of migration_reports, which the first
-- process to start afterwards prints; docs/operations.md), unless the database never held a policy.
--
-- What counts as left behind must be proven from our database alone, and the two bank stores keep
-- different things here. Embedded banks are rows of `banks`; the remote store's banks live in
-- Hindsight, which a migration cannot ask, so "no row in banks" proves nothing there (no remote
-- bank has one), and an admin may put a policy before its bank exists (CONTRACT §9). A bank id's
-- policy and policy history are removed only when all of these hold:
--   1. the audit log records the bank's deletion (`bank.delete`): it existed and was deleted
--      through us, and that deletion (its newest) has an owner in its `before`, which only a bank
--      of the embedded store has (a Hindsight bank records none);
--   2. nothing wrote that id after the deletion: no later audit entry of an import into that bank
--      or of a policy write, no policy row or history entry dated after it (a policy put after the
--      deletion was put on purpose, for a bank to come);
--   3. no bank of that id exists as far as we know: no `banks` row, and no recorded import (the
--      deletion took the bank's imports along, so any left is a later one: the bank made again).
-- A deletion without an owner (a Hindsight bank, or an embedded bank whose owner's account is
-- gone) cannot be told apart from a bank that Hindsight holds again under that id (Hindsight makes
-- a bank when it is first written to), so those policies stay and the report names them for an
-- admin to decide. A bank id the audit log never saw deleted keeps everything.
WITH left_behind AS (
  SELECT ids.bank_id, deletion.owner
  FROM (SELECT bank_id FROM bank_policies UNION SELECT bank_id FROM bank_policy_changes) AS ids
  -- Audit targets name the bank id as encodeURIComponent writes it; of its characters (A-Z a-z 0-9 . _ : -) only ':' changes.
  CROSS JOIN LATERAL (SELECT '/ext/svc/banks/' || replace(ids.bank_id, ':', '%3A') AS path) AS target
  CROSS JOIN LATERAL (
    SELECT a.seq, a.at, a.before ->> 'owner' AS owner
    FROM audit_entries AS a
    WHERE a.action = 'bank.delete' AND (a.target_id = ids.bank_id OR a.target = target.path)
    ORDER BY a.seq DESC
    LIMIT 1
  ) AS deletion
  WHERE NOT EXISTS (SELECT FROM banks AS b WHERE b.id = ids.bank_id)
    AND NOT EXISTS (SELECT FROM bank_imports AS i WHERE i.bank_id = ids.bank_id)
    AND NOT EXISTS (
      SELECT FROM audit_entries AS a
      WHERE a.seq > deletion.seq
        AND a.action IN ('bank.import', 'bank.policy.put', 'bank.policy.delete', 'bank.policy.restore')
        AND (a.target_id = ids.bank_id OR a.target IN (target.path, target.path || '/policy'))
    )
    AND NOT EXISTS (SELECT FROM bank_policies AS p WHERE p.bank_id = ids.bank_id AND p.updated_at > deletion.at)
    AND NOT EXISTS (SELECT FROM bank_policy_changes AS h WHERE h.bank_id = ids.bank_id AND h.at > deletion.at)
),
removed_policies AS (
  DELETE FROM bank_policies WHERE bank_id IN (SELECT bank_id FROM left_behind WHERE owner IS NOT NULL) RETURNING bank_id
),
removed_changes AS (
  DELETE FROM bank_policy_changes WHERE bank_id IN (SELECT bank_id FROM left_behind WHERE owner IS NOT NULL) RETURNING bank_id
),
kept AS (
  SELECT bank_id FROM left_behind WHERE owner IS NULL AND EXISTS (SELECT FROM bank_policies AS p WHERE p.bank_id = left_behind.bank_id)
)
INSERT INTO migration_reports (migration, message)
SELECT
  '0014_remove_orphan_bank_policies',
  concat_ws(
    ' ',
    format(
      'Bank policies left behind by deleted banks (CONTRACT §19): removed %s, with %s entries of their history; their documents stay in the audit log.',
      (SELECT count(*) FROM removed_policies),
      (SELECT count(*) FROM removed_changes)
    ),
    CASE WHEN EXISTS (SELECT FROM kept) THEN format(
      'Kept %s whose deleted bank had no owner (a Hindsight bank, or one whose owner was deleted), as Hindsight may hold a bank of that id again: %s%s. An admin may delete them (DELETE /ext/svc/banks/{bank_id}/policy).',
      (SELECT count(*) FROM kept),
      (SELECT string_agg(bank_id, ', ') FROM (SELECT bank_id FROM kept ORDER BY bank_id LIMIT 20) AS first_ids),
      CASE WHEN (SELECT count(*) FROM kept) > 20 THEN ', …' ELSE '' END
    ) END
  )
-- A database that never held a policy (a new one) has nothing to report.
WHERE EXISTS (SELECT FROM bank_policies) OR EXISTS (SELECT FROM bank_policy_changes);
