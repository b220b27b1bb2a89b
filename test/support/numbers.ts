// The Orlando exchange the tests fill the number inventory with (addNumbers, `npm run numbers`), and
// how the API reads one of its numbers.

/** The exchange and capabilities of the tests' Orlando numbers (+1 407 555 xxxx), as addNumbers takes them. */
export const ORLANDO = { city: 'Orlando', state: 'FL', country: 'US', smsEnabled: true };

/** An Orlando number (+1407555xxxx) as the API reads it, without its href and type. */
export const orlandoNumber = (number = '+14075550100') => ({
  number,
  displayNumber: `+1 407-555-${number.slice(-4)}`,
  prefix: '1407',
  ...ORLANDO,
});
