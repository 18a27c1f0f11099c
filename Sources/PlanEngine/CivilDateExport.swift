// Plans are laid out in the one calendar (`CivilDate`): the engine's users get `LocalDate` and `Weekday` with it.
@_exported import CivilDate
