-- The audit log names operators by account id (`operator:17`), never by the e-mail address
-- typed at sign-in; the console shows each account's e-mail by looking it up. Entries
-- written before: accounts' addresses become their ids, and addresses without an account
-- (typed text, possibly with control characters) become `unknown`.
UPDATE audit_log
   SET actor = 'operator:' || CAST((SELECT o.id FROM operators o
                                     WHERE audit_log.actor = 'operator:' || o.email) AS TEXT)
 WHERE EXISTS (SELECT 1 FROM operators o WHERE audit_log.actor = 'operator:' || o.email);

UPDATE audit_log
   SET target = 'operator:' || CAST((SELECT o.id FROM operators o
                                      WHERE audit_log.target = 'operator:' || o.email) AS TEXT)
 WHERE action = 'operator.create'
   AND EXISTS (SELECT 1 FROM operators o WHERE audit_log.target = 'operator:' || o.email);

UPDATE audit_log
   SET actor = 'unknown'
 WHERE actor LIKE 'operator:%'
   AND actor NOT IN (SELECT 'operator:' || CAST(o.id AS TEXT) FROM operators o);
