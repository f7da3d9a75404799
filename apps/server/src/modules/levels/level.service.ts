import {
  type BatteryBandScale,
  type DamageLevelForm,
  type DamageLevelRow,
  type Page,
  type PageQuery,
  type PowerLevelForm,
  type PowerLevelRow,
  type PowerLevelState,
  ResultCode,
} from '@uiot/contracts';
import type { Db } from '../../db/client.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { lockForTransaction } from '../../db/locks.ts';
import { AppError } from '../../http/app-error.ts';
import type { EventBus } from '../../infra/events/event-bus.ts';
import {
  allDamageLevels,
  allPowerLevels,
  deleteLevelRow,
  insertDamageLevel,
  insertPowerLevel,
  type LevelTable,
  levelExists,
  otherRanges,
  queryDamageLevels,
  queryPowerLevels,
  updateDamageLevelRow,
  updatePowerLevelRow,
} from './level.repository.ts';
import { batteryBandsOf, type LevelRange, levelConflicts } from './level-ranges.ts';
import './events.ts';
import { damageLevel, powerLevel } from './levels.schema.ts';

const levelTaken = () => AppError.invalid([{ path: 'level', message: 'v.levelTaken' }]);

/**
 * Power and damage levels (spec §3, /sys/battery-power and /sys/damage): numbered ranges of one kind that
 * never overlap and never share a number, and what the console's monitor and the run states read of them.
 */
export class LevelService {
  /** The battery bands, read once and kept until the power levels change (`powerLevel.changed`). */
  private bands: Promise<BatteryBandScale> | null = null;

  constructor(
    private readonly db: Db,
    private readonly events: EventBus,
  ) {}

  /** Drops the kept battery bands: the next reader reads the power levels again. */
  forgetBands(): void {
    this.bands = null;
  }

  queryPower(search: { state?: PowerLevelState | undefined } & PageQuery): Promise<Page<PowerLevelRow>> {
    return queryPowerLevels(this.db, search, search);
  }

  /** Every power level, lowest range first. */
  powerLevels(): Promise<PowerLevelRow[]> {
    return allPowerLevels(this.db);
  }

  createPower(form: PowerLevelForm): Promise<{ id: string }> {
    return this.writing(powerLevel, form, undefined, async (tx) => ({
      id: await insertPowerLevel(tx, form),
    }));
  }

  updatePower({ id, ...form }: PowerLevelForm & { id: string }): Promise<void> {
    return this.writing(powerLevel, form, id, (tx) => updatePowerLevelRow(tx, id, form));
  }

  removePower(id: string): Promise<void> {
    return this.removing(powerLevel, id);
  }

  /**
   * The runtime monitor's battery bands, from the power levels (the fixed ones while there is none). Every
   * monitor page and counter reads them: they are kept in memory until a power level changes here or on
   * another instance.
   */
  batteryBands(): Promise<BatteryBandScale> {
    if (!this.bands) {
      const reading = this.powerLevels().then(batteryBandsOf);
      // A failed read is not kept: the next reader tries again.
      reading.catch(() => {
        if (this.bands === reading) this.bands = null;
      });
      this.bands = reading;
    }
    return this.bands;
  }

  queryDamage(page: PageQuery): Promise<Page<DamageLevelRow>> {
    return queryDamageLevels(this.db, page);
  }

  /** Every damage level, lowest range first. */
  damageLevels(): Promise<DamageLevelRow[]> {
    return allDamageLevels(this.db);
  }

  createDamage(form: DamageLevelForm): Promise<{ id: string }> {
    return this.writing(damageLevel, form, undefined, async (tx) => ({
      id: await insertDamageLevel(tx, form),
    }));
  }

  updateDamage({ id, ...form }: DamageLevelForm & { id: string }): Promise<void> {
    return this.writing(damageLevel, form, id, (tx) => updateDamageLevelRow(tx, id, form));
  }

  removeDamage(id: string): Promise<void> {
    return this.removing(damageLevel, id);
  }

  /**
   * Writes a level of one kind once its number and range fit beside the others (field issues otherwise). The
   * kind's writes take turns (a named lock), so two levels saved at once cannot overlap each other.
   */
  private async writing<T>(
    table: LevelTable,
    candidate: LevelRange,
    id: string | undefined,
    write: (tx: Db) => Promise<T>,
  ): Promise<T> {
    try {
      return await this.events.transaction(this.db, async (tx) => {
        await lockForTransaction(tx, tableName(table));
        if (id !== undefined && !(await levelExists(tx, table, id))) throw new AppError(ResultCode.NotFound);
        const issues = levelConflicts(candidate, await otherRanges(tx, table, id));
        if (issues.length > 0) throw AppError.invalid(issues);
        const written = await write(tx);
        this.changed(table);
        return written;
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw levelTaken();
      throw error;
    }
  }

  private async removing(table: LevelTable, id: string): Promise<void> {
    if (!(await levelExists(this.db, table, id))) throw new AppError(ResultCode.NotFound);
    await deleteLevelRow(this.db, table, id);
    this.changed(table);
  }

  /**
   * A change of levels is announced (after commit, to every instance): power levels decide the battery
   * bands and, with damage levels, the computed run states.
   */
  private changed(table: LevelTable): void {
    this.events.publish(table === powerLevel ? 'powerLevel.changed' : 'damageLevel.changed', {});
  }
}

const tableName = (table: LevelTable) => (table === powerLevel ? 'power_level' : 'damage_level');
