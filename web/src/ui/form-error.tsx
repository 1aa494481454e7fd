import { Alert } from 'antd';

/** A form's refusal from the server, announced as it appears; the live region stays so it is heard. */
export function FormError({ message }: { message: string | undefined }) {
  return (
    <div role="alert" className="form-error">
      {message && <Alert type="error" showIcon title={message} />}
    </div>
  );
}
