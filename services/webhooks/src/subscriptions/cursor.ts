// The paging helpers of every list live in @switchboard/contracts; re-exported for the lists of this service.
export { decodeCursor, encodeCursor, pageSize, toPage } from '@switchboard/contracts';
