-- idgen machine-id leases, PostgreSQL. ${table} is replaced by the table name. Run it once, on
-- a database without the table: if the table exists the CREATE fails and nothing is inserted.
-- A row per machine id (owner, token: the holder and its claim count; nonce: replaced and compared
-- by every write; expires_ms: end of the claim, Unix ms by the database's clock; high_water_mark:
-- the last ms any holder's IDs may carry; fence_offset_ms: how far before expires_ms the writer's
-- fence stood; acquired_ms: when the row was created or last claimed). The row machine_id = -1 is
-- the namespace: owner = the Snowflake layout signature ('' until the first claim names it), token
-- = the highest machine id with a row, high_water_mark = the database time from which the rows
-- the lease creates are free, expires_ms = the largest BIGINT (never a free id). Inserted with the
-- table, it proves the table new; a table without it (TRUNCATE, a partial restore) counts as
-- emptied, and new rows are free only one ttl later. Never insert it by hand into a used table.
BEGIN;
CREATE TABLE ${table} (
    machine_id      INTEGER      NOT NULL PRIMARY KEY,
    owner           VARCHAR(255) NOT NULL,
    token           BIGINT       NOT NULL,
    acquired_ms     BIGINT       NOT NULL,
    expires_ms      BIGINT       NOT NULL,
    high_water_mark BIGINT       NOT NULL,
    nonce           BIGINT       DEFAULT 0 NOT NULL,
    fence_offset_ms BIGINT       DEFAULT 0 NOT NULL
);
INSERT INTO ${table} (machine_id, owner, token, acquired_ms, expires_ms, high_water_mark, nonce, fence_offset_ms)
VALUES (-1, '', -1, CAST(EXTRACT(EPOCH FROM CURRENT_TIMESTAMP) * 1000 AS BIGINT), 9223372036854775807,
        -9223372036854775808, 0, 0);
COMMIT;
