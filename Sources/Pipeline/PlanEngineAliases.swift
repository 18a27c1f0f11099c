import PlanEngine

// PlanEngine's screen state (`no_plan`, `ready`, `completed`, `error`) is named like Store's state of a stored plan
// version (`ready`, `completed`, `error`), and PlanEngine's main enum is named like the module, so its types cannot be
// qualified. This file imports only PlanEngine.
typealias PlanScreenState = PlanState
