-- Paired kiosks: the devices the operator let use the server's /api/, the one-time codes that pair
-- them, and the operator panel's unlocked sessions. Only hashes of credentials and codes are kept:
-- a copy of the database pairs nothing. Times are milliseconds since 1970 from the server's clock.

-- One device, paired with a code: its name, the SHA-256 of the credential it holds (a random
-- token in a cookie its pages cannot read), when it was paired and last seen, and when it was
-- revoked (kept, so that its next request is told so, until its cookie has run out).
CREATE TABLE paired_devices (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  name text NOT NULL,
  token_hash text NOT NULL UNIQUE,
  paired_at bigint NOT NULL,
  last_seen bigint NOT NULL,
  revoked_at bigint
);
-- A name stands for one device at a time (the operator revokes it by name).
CREATE UNIQUE INDEX paired_devices_name ON paired_devices (lower(name)) WHERE revoked_at IS NULL;

-- A one-time pairing code: its scrypt hash (with the memory's salt, below), the device name it
-- gives, when it runs out, and when it was used (kept a day, so that a second use is told so).
CREATE TABLE pairing_codes (
  code_hash text PRIMARY KEY,
  name text NOT NULL,
  created_at bigint NOT NULL,
  expires_at bigint NOT NULL,
  used_at bigint
);

-- The salt the codes are hashed with: made once, by the first server that makes a code.
CREATE TABLE pairing_salt (
  one boolean PRIMARY KEY DEFAULT true CHECK (one),
  salt text NOT NULL
);

-- The operator panel unlocked with the PIN: the SHA-256 of its session's token, and until when
-- it holds (each use moves that on).
CREATE TABLE operator_sessions (
  token_hash text PRIMARY KEY,
  expires_at bigint NOT NULL
);
