// Login bookkeeping, per user name (existing or not, so the answers do not tell which names
// exist): the last successful login, consecutive failures and, past a threshold, a back-off
// that doubles with each further failure. SHOW USER prints these. Kept in memory: a restart
// clears them, which only shortens a back-off.

export interface LockoutPolicy {
  /** Failures in a row before logins of that name must wait. */
  threshold: number;
  /** The longest wait, in milliseconds. */
  maxDelayMs: number;
}

export const DEFAULT_LOCKOUT: LockoutPolicy = { threshold: 5, maxDelayMs: 5 * 60_000 };

export interface LoginRecord {
  lastSuccess?: number;
  failedAttempts: number;
  nextValidLogin?: number;
}

const MAX_TRACKED = 100_000;

export class LoginTracker {
  private readonly records = new Map<string, LoginRecord>();

  /** `policy` undefined: failures are counted but never make logins wait. */
  constructor(
    private readonly now: () => number,
    private readonly policy: LockoutPolicy | undefined,
  ) {}

  /** When logins of `user` may be tried again, if they must wait now. */
  lockedUntil(user: string): number | undefined {
    const until = this.records.get(user)?.nextValidLogin;
    return until !== undefined && until > this.now() ? until : undefined;
  }

  failed(user: string): void {
    const record = this.record(user);
    record.failedAttempts += 1;
    if (!this.policy) return;
    const over = record.failedAttempts - this.policy.threshold;
    if (over >= 0) record.nextValidLogin = this.now() + Math.min(1000 * 2 ** Math.min(over, 30), this.policy.maxDelayMs);
  }

  succeeded(user: string): void {
    const record = this.record(user);
    record.lastSuccess = this.now();
    record.failedAttempts = 0;
    delete record.nextValidLogin;
  }

  get(user: string): LoginRecord {
    return this.records.get(user) ?? { failedAttempts: 0 };
  }

  private record(user: string): LoginRecord {
    let record = this.records.get(user);
    if (!record) {
      // Names tried by a flood of random logins must not grow memory without bound: the
      // oldest record goes (each failed try costs the caller a full scrypt check).
      if (this.records.size >= MAX_TRACKED) this.records.delete(this.records.keys().next().value!);
      record = { failedAttempts: 0 };
      this.records.set(user, record);
    }
    return record;
  }
}
