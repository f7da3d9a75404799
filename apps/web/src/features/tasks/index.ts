/**
 * What other features use of tasks and operation records: the remote open / close of a lock (device ledger,
 * runtime monitor) and the operation records of one device (the monitor's operation-record tab).
 */

export { HomeTaskCards } from './home-task-cards.tsx';
export { OperationRecords } from './operation-records.tsx';
export { RemoteOperationButtons, remoteRowActions } from './remote-operation.tsx';
