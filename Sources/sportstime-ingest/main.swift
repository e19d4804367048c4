import Foundation
FileHandle.standardError.write(Data("sportstime-ingest: not built yet\n".utf8))
exit(1)
