# frozen_string_literal: true

module Advlock
  # Base of every advlock error. Each subclass stands for one outcome a caller
  # may need to tell apart; rescue the class, never parse the message.
  # #status is the C ABI's status code, #sqlstate the server's code or "".
  class Error < StandardError
    attr_reader :status, :sqlstate

    def initialize(message = nil, status: nil, sqlstate: "")
      super(message)
      @status = status || self.class.default_status
      @sqlstate = sqlstate
    end

    class << self
      attr_writer :default_status

      def default_status
        @default_status || -1
      end

      # The exception for a status; the native extension calls this.
      def for_status(status, message, sqlstate)
        (BY_STATUS[status] || Error).new(message, status: status, sqlstate: sqlstate)
      end
    end
  end

  {
    NotAcquired: 1, InternalError: -1, OutOfMemory: -2, InvalidArgument: -3, BadKey: -4,
    RegistryError: -5, NotFound: -6, FileError: -7, Misuse: -8, ConnectError: -9, UnsafeTarget: -10,
    LockLost: -13, Canceled: -14, CapacityError: -15, Deadlock: -16, PermissionDenied: -17,
    ServerError: -18, Unsupported: -19, ConfigError: -20
  }.each do |name, status|
    const_set(name, Class.new(Error)).default_status = status
  end
  # The server is one where locks would exclude no one; refused unless opted in.
  # ClusterTarget: a node of a multi-primary cluster (MySQL Galera; allow_cluster=true in the URL).
  # UnsafeLockDirectory: the host-local lock directory or a lock file in it could be replaced by another user.
  { StandbyTarget: -10, ReadOnlyTarget: -11, PoolerTarget: -12, ClusterTarget: -21,
    UnsafeLockDirectory: -22 }.each do |name, status|
    const_set(name, Class.new(UnsafeTarget)).default_status = status
  end

  Error::BY_STATUS = {
    1 => NotAcquired, -1 => InternalError, -2 => OutOfMemory, -3 => InvalidArgument, -4 => BadKey,
    -5 => RegistryError, -6 => NotFound, -7 => FileError, -8 => Misuse, -9 => ConnectError,
    -10 => StandbyTarget, -11 => ReadOnlyTarget, -12 => PoolerTarget, -13 => LockLost, -14 => Canceled,
    -15 => CapacityError, -16 => Deadlock, -17 => PermissionDenied, -18 => ServerError, -19 => Unsupported,
    -20 => ConfigError, -21 => ClusterTarget, -22 => UnsafeLockDirectory
  }.freeze
end
