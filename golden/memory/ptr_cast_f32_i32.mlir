entry @ptr_cast_f32_i32(%arg0: tile<ptr<f32>>, %arg1: tile<ptr<i32>>, %arg2: tile<i64>) {
  %0 = make_token : token
  %1, %2, %3 = get_tile_block_id : tile<i32>
  %4 = reshape %arg0 : tile<ptr<f32>> -> tile<1xptr<f32>>
  %5 = broadcast %4 : tile<1xptr<f32>> -> tile<128xptr<f32>>
  %6 = constant <i32: 128> : tile<i32>
  %7 = muli %1, %6 : tile<i32>
  %8 = reshape %7 : tile<i32> -> tile<1xi32>
  %9 = broadcast %8 : tile<1xi32> -> tile<128xi32>
  %10 = iota : tile<128xi32>
  %11 = addi %9, %10 : tile<128xi32>
  %12 = offset %5, %11 : tile<128xptr<f32>>, tile<128xi32> -> tile<128xptr<f32>>
  %13 = ptr_to_ptr %12 : tile<128xptr<f32>> -> tile<128xptr<i32>>
  %14 = ptr_to_int %13 : tile<128xptr<i32>> -> tile<128xi64>
  %15 = ptr_to_int %arg0 : tile<ptr<f32>> -> tile<i64>
  %16 = reshape %15 : tile<i64> -> tile<1xi64>
  %17 = broadcast %16 : tile<1xi64> -> tile<128xi64>
  %18 = subi %14, %17 : tile<128xi64>
  %19 = constant <i64: 0> : tile<128xi64>
  %20 = cmpi greater_than_or_equal %18, %19, signed : tile<128xi64> -> tile<128xi1>
  %21 = constant <i64: 4> : tile<i64>
  %22 = muli %arg2, %21 : tile<i64>
  %23 = subi %22, %21 : tile<i64>
  %24 = reshape %23 : tile<i64> -> tile<1xi64>
  %25 = broadcast %24 : tile<1xi64> -> tile<128xi64>
  %26 = cmpi less_than_or_equal %18, %25, signed : tile<128xi64> -> tile<128xi1>
  %27 = andi %20, %26 : tile<128xi1>
  assert %27, "kernel `ptr_cast_f32_i32`: `load_ptr_tko`: a lane addresses memory outside argument 0 (In) (at pointers.py:107)" : tile<128xi1>
  %28, %29 = load_ptr_tko weak %13 token=%0 : tile<128xptr<i32>> -> tile<128xi32>, token
  %30 = assume div_by<16>, %arg1 : tile<ptr<i32>>
  %31 = make_tensor_view %30, shape = [1024], strides = [1] : tensor_view<1024xi32, strides=[1]>
  %32 = make_partition_view %31 : partition_view<tile=(128), padding_value = zero, tensor_view<1024xi32, strides=[1]>>
  %33 = store_view_tko weak %28, %32[%1] token = %29 : tile<128xi32>, partition_view<tile=(128), padding_value = zero, tensor_view<1024xi32, strides=[1]>>, tile<i32> -> token
  return
}
