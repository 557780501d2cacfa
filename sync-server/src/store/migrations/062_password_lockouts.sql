-- Wrong passwords, counted per email address (lower-cased) whether or not an account has it,
-- so that a lockout never tells whether the account exists. Ten wrong passwords within
-- fifteen minutes of the first one lock that address's password sign-in for fifteen minutes
-- (`locked_until`); a right password, or an operator setting a new one, clears the row.
CREATE TABLE password_failures (
  email text PRIMARY KEY,
  failures integer NOT NULL,
  first_failed_at timestamptz NOT NULL,
  locked_until timestamptz
);
