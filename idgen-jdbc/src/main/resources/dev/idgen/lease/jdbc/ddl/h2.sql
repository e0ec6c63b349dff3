-- idgen machine-id leases, H2 2.x. ${table} is replaced by the configured table name.
-- Times are Unix milliseconds from the database's own clock; high_water_mark is the last Unix
-- millisecond any holder of the id covered with an ID (-9223372036854775808 = none yet).
-- nonce: random, rewritten by every claim and renewal by compare-and-set, so of two copies of one
-- process image (a restored snapshot) only one can renew. fence_offset_ms: the writer's
-- maxClockSkew + safetyMargin, so a claimer with other settings still starts above its fence.
CREATE TABLE IF NOT EXISTS ${table} (
    machine_id      INTEGER      NOT NULL PRIMARY KEY,
    owner           VARCHAR(255) NOT NULL,
    token           BIGINT       NOT NULL,
    acquired_ms     BIGINT       NOT NULL,
    expires_ms      BIGINT       NOT NULL,
    high_water_mark BIGINT       NOT NULL,
    nonce           BIGINT       DEFAULT 0 NOT NULL,
    fence_offset_ms BIGINT       DEFAULT 0 NOT NULL
)
