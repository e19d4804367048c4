// `sportstime-plan`: the command is PlanCommand (Sources/SportsTimeCommand/Plan/), the work is in SportsTimePlan.
import SportsTimeCommand

PlanCommand.main()
