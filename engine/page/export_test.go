package page

// TwoDigitYear is twoDigitYear, for tests.
var TwoDigitYear = twoDigitYear
