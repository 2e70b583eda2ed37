export const ATTENDANCE_COLOR = { Open: 'gray', Arrived: 'green', 'No show': 'red' } as const;
export const ORDER_CREATED = 'Order created!';
