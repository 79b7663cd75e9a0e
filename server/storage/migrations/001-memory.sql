-- The kiosk's memory, first version: what must outlive a crash or a restart of its server, and be
-- shared by the servers of a fleet. Times are milliseconds since 1970 from the server's clock.

-- Every action id a server was sent: the request's fingerprint, how it ended, and for a short while
-- the answer's data, so that a repeat gets the first answer and never runs the action again.
CREATE TABLE action_ids (
  id text PRIMARY KEY,
  -- the order ids came in: the oldest finished ones are forgotten first
  seq bigint GENERATED ALWAYS AS IDENTITY,
  fingerprint text NOT NULL,
  flow_id text NOT NULL,
  tool text NOT NULL,
  created_at bigint NOT NULL,
  -- while it runs: when the server running it is taken to have stopped
  lease_until bigint,
  -- the answer as JSON, its data left out (null while it runs)
  answer text,
  -- the answer's data as JSON, while it is kept (a visitor's details: deleted, not hidden, when let go)
  data text,
  data_bytes integer NOT NULL DEFAULT 0,
  data_until bigint,
  -- the order answers' data came in: the oldest goes first when the bytes pass their limit
  data_order bigint,
  data_dropped boolean NOT NULL DEFAULT false
);
CREATE INDEX action_ids_by_age ON action_ids (seq);
CREATE INDEX action_ids_holding_data ON action_ids (data_order) WHERE data IS NOT NULL;
CREATE INDEX action_ids_running ON action_ids (lease_until) WHERE answer IS NULL;
CREATE SEQUENCE action_data_order;

-- The operator PIN's lock: wrong tries in a row, locks so far (each twice as long), locked until.
CREATE TABLE pin_lock (
  name text PRIMARY KEY,
  wrong_tries integer NOT NULL DEFAULT 0,
  locks integer NOT NULL DEFAULT 0,
  locked_until bigint NOT NULL DEFAULT 0
);

-- Outcome counts per flow: `reported` by the page (/api/analytics), `performed` by the server.
CREATE TABLE outcome_counts (
  kind text NOT NULL,
  flow_id text NOT NULL,
  outcome text NOT NULL,
  count bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (kind, flow_id, outcome)
);

-- Since when the counts go back: the moment this memory was made.
CREATE TABLE counts_since (
  one boolean PRIMARY KEY DEFAULT true CHECK (one),
  since timestamptz NOT NULL DEFAULT now()
);
INSERT INTO counts_since DEFAULT VALUES;
