// Stored profiles and plan rows speak of days in the one calendar (`CivilDate`): the store's users get `LocalDate` and
// `Weekday` with it.
@_exported import CivilDate
