// `sportstime-ingest`: the command is IngestCommand (Sources/SportsTimeCommand/Ingest/), the work is in SportsTimeIngest.
import SportsTimeCommand

IngestCommand.main()
