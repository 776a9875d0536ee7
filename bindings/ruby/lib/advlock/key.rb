# frozen_string_literal: true

module Advlock
  # A PostgreSQL advisory-lock key: a bigint, or a pair of int4. A value:
  # equal keys name the same lock. Names become keys in the advlock core, so
  # every language derives the same key from the same name.
  #
  # A key made from a name keeps the name (#name): a MySQL or MariaDB session
  # locks the name itself (GET_LOCK('daily_sales')), where PostgreSQL locks
  # its number. Equality compares the numbers only. Which keys keep a name is
  # the C library's answer: a Key wraps its lock target as the C ABI gave it.
  class Key
    # name: the name the key was made from (from_name, "name:TEXT", a registry
    # entry without a key of its own, a holder row locking its name), else nil.
    attr_reader :k1, :k2, :bigint, :name

    def self.bigint(value) = new(Native::NativeKey.bigint(int(value, 64, "a bigint key")))

    def self.pair(k1, k2)
      new(Native::NativeKey.pair(int(k1, 32, "the first number of a pair key"),
                                 int(k2, 32, "the second number of a pair key")))
    end

    # advlock's frozen scheme (SHA-256 of "advlock:" + name); the key keeps the name.
    def self.from_name(name) = new(Native::NativeKey.from_name(text(name)))

    # The with_advisory_lock gem's scheme: [crc32(name) & 0x7fffffff, prefix & 0x7fffffff].
    def self.from_name_compat(name, prefix = 0) = new(Native::NativeKey.from_name_compat(text(name), prefix))

    # "100:1", "-42" or "name:TEXT" (which keeps the name).
    def self.parse(text) = new(Native::NativeKey.parse(text(text)))

    # A Key from what the API accepts: a Key, a name (String or Symbol; looked
    # up in registry when given), an Integer (bigint) or [k1, k2].
    def self.coerce(value, registry = nil)
      case value
      when Key then value
      when String, Symbol then registry ? registry.key(value.to_s) : from_name(value.to_s)
      when Integer then bigint(value)
      when Array
        raise TypeError, "a pair key is [k1, k2], got #{value.inspect}" unless value.size == 2
        pair(*value)
      else
        raise TypeError, "a lock key is an Advlock::Key, a name, an Integer or [k1, k2], got #{value.class}"
      end
    end

    # @api private: native is a Native::NativeKey (a key and the name it keeps).
    def initialize(native)
      @native = native
      if native.is_pair
        @k1 = native.k1
        @k2 = native.k2
      else
        @bigint = native.bigint_value
      end
      @name = native.has_name ? native.name.freeze : nil
      freeze
    end

    def pair? = @bigint.nil?
    def to_s = pair? ? "#{k1}:#{k2}" : bigint.to_s
    def inspect = "#<Advlock::Key #{self}#{" name=#{name.inspect}" if name}>"
    def ==(other) = other.is_a?(Key) && other.k1 == k1 && other.k2 == k2 && other.bigint == bigint
    alias eql? ==
    def hash = [k1, k2, bigint].hash

    # Marshal keeps the key as text Key.parse reads back ("name:TEXT" for a
    # named key, which keeps the name); the native target is not data.
    def marshal_dump = name ? "name:#{name}" : to_s
    def marshal_load(text) = initialize(Native::NativeKey.parse(text))

    # The statement advlock would run for this key (kind: try_lock, lock,
    # unlock, try_xact_lock, xact_lock), for running it on another connection.
    def sql(kind, shared: false) = @native.sql(kind.to_s, shared)
    # What that statement's boolean answer means (raises LockLost for a failed unlock).
    def sql_result(kind, answer) = @native.sql_result(kind.to_s, answer ? true : false)

    # The key of slot n (1..64) of this lock, as a lock taken with slots:
    # holds it: a bigint derived by advlock's frozen rule (advlock_key_slot),
    # the same in every language, the command and psql.
    def slot(n) = Key.new(@native.slot(Key.slot_number(n, "a slot")))

    # @api private: the fence check for a token of a lock holding this key on
    # the server (advlock_fence_check_sql), for the job's own connection.
    def fence_check_sql(token) = @native.fence_check_sql(token)

    # @api private: an Integer for the C library to judge (it knows the
    # range); anything else is refused here, as SWIG would only say TypeError.
    def self.slot_number(value, what)
      return value if value.is_a?(Integer) && value.bit_length < 64

      raise InvalidArgument, "#{what} must be an Integer, got #{value.inspect}"
    end

    # @api private: the target to hand the C library.
    def with_native = yield(@native)

    # @api private
    def self.from_native(native) = new(native)

    def self.text(value)
      raise InvalidArgument, "a lock name or key text is a String, got nil" if value.nil?
      value.to_s
    end

    def self.int(value, bits, what)
      raise TypeError, "#{what} must be an Integer, got #{value.class}" unless value.is_a?(Integer)
      limit = 2**(bits - 1)
      return value if value >= -limit && value < limit

      raise BadKey, "#{what} must fit in #{bits == 32 ? 'int4' : 'int8'}, got #{value}"
    end
    private_class_method :text, :int
  end
end
