/**
 * What other features use of the IoT feature; everything else in this folder is its own. The device
 * ledger shows the credential issued on registering a device or resetting its secret; the device monitor
 * shows command states as the command records do.
 */
export { CommandStateTag, commandNameOf, commandStateLabel } from './command-state.tsx';
export { DeviceCredentialDialog, type IssuedCredential } from './device-credential-dialog.tsx';
export { type IssuedPinSecret, PinSecretDialog } from './pin-secret-dialog.tsx';
