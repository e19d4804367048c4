import Foundation
FileHandle.standardError.write(Data("sportstime-plan: not built yet\n".utf8))
exit(1)
